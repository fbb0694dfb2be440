import { useParams } from 'react-router';
import admin from 'virtual:i18n/admin';
import { PageTitle } from '../../../components/page-title';
import { useUserDetails } from '../../../features/admin-users/api/get-user';
import { EditUserForm } from '../../../features/admin-users/components/edit-user-form';
import { useUser } from '../../../features/auth/api/get-me';
import { splitAround, useT } from '../../../i18n/runtime';
import { useGoBack } from '../../../lib/use-go-back';
import { BackButton } from '../../../components/back-button';

export function Component() {
  const t = useT(admin);
  const id = Number(useParams().id);
  const me = useUser();
  const user = useUserDetails(id);
  const goBack = useGoBack('/admin/users');
  const [beforeName, afterName] = splitAround(t, 'admin.userEdit.heading', 'name');
  return (
    <>
      <PageTitle title={t('admin.userEdit.title')} actions={<BackButton onClick={goBack} />}>
        {user.data ? (
          <>
            {beforeName}
            <span translate="no">{user.data.name}</span>
            {afterName}
          </>
        ) : (
          t('admin.userEdit.title')
        )}
      </PageTitle>
      <div className="card">
        <div className="card-body">
          {me && user.data ? <EditUserForm me={me} user={user.data} onUpdated={goBack} /> : null}
          {user.isError ? <p className="text-danger mb-0">{t('admin.user.loadError')}</p> : null}
        </div>
      </div>
    </>
  );
}
