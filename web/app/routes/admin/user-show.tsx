import { Link, useParams } from 'react-router';
import admin from 'virtual:i18n/admin';
import { can } from '../../../../core/permissions.js';
import { PageTitle } from '../../../components/page-title';
import { useUserDetails } from '../../../features/admin-users/api/get-user';
import { UserDetails } from '../../../features/admin-users/components/user-details';
import { UserRuns } from '../../../features/admin-users/components/user-runs';
import { useUser } from '../../../features/auth/api/get-me';
import { ResetTwoFactorButton } from '../../../features/two-factor/components/reset-two-factor';
import { splitAround, useT } from '../../../i18n/runtime';
import { useGoBack } from '../../../lib/use-go-back';
import { BackButton } from '../../../components/back-button';

export function Component() {
  const t = useT(admin);
  const id = Number(useParams().id);
  const me = useUser();
  const user = useUserDetails(id);
  const goBack = useGoBack('/admin/users');
  const name = user.data?.name ?? '';
  const [beforeName, afterName] = splitAround(t, 'admin.userShow.title', 'name');
  return (
    <>
      <PageTitle
        title={t('admin.userShow.title', { name })}
        actions={
          <>
            <BackButton onClick={goBack} />
            {user.data && can(me, { type: 'user.update', target: user.data }) ? (
              <Link to={`/admin/user/edit/${id}`} className="btn btn-primary">
                {t('admin.actions.edit')}
              </Link>
            ) : null}
            {/* Two-factor sign-in is the admin's to reset (§21). */}
            {user.data?.two_factor && me?.role === 'admin' ? <ResetTwoFactorButton user={user.data} /> : null}
          </>
        }
      >
        {beforeName}
        <span translate="no">{name}</span>
        {afterName}
      </PageTitle>
      {user.data ? <UserDetails user={user.data} /> : null}
      {/* Another user's runs are the admin's to see (§5), not a manager's. */}
      {user.data && can(me, { type: 'entry.manage', ownerId: user.data.id }) ? (
        <UserRuns userId={user.data.id} name={user.data.name} />
      ) : null}
      {user.isError ? <p className="text-danger">{t('admin.user.loadError')}</p> : null}
    </>
  );
}
