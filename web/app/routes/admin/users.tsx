import admin from 'virtual:i18n/admin';
import { PageTitle } from '../../../components/page-title';
import { UsersList } from '../../../features/admin-users/components/users-list';
import { useUser } from '../../../features/auth/api/get-me';
import { useT } from '../../../i18n/runtime';

export function Component() {
  const t = useT(admin);
  const me = useUser();
  return (
    <>
      <PageTitle title={t('admin.users.title')}>{t('admin.users.title')}</PageTitle>
      {me ? <UsersList me={me} /> : null}
    </>
  );
}
