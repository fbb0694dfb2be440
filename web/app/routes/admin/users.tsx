import admin from 'virtual:i18n/admin';
import { PageTitle } from '../../../components/page-title';
import { InviteForm, PendingAccounts } from '../../../features/admin-users/components/pending-accounts';
import { UsersList } from '../../../features/admin-users/components/users-list';
import { useAppConfig } from '../../../features/auth/api/get-app-config';
import { useUser } from '../../../features/auth/api/get-me';
import { useT } from '../../../i18n/runtime';

export function Component() {
  const t = useT(admin);
  const me = useUser();
  const config = useAppConfig().data;
  return (
    <>
      <PageTitle title={t('admin.users.title')}>{t('admin.users.title')}</PageTitle>
      {/* CONTRACT.md §21: accounts waiting for approval, and invitations by mail (admins). */}
      {config?.signup === 'approval' ? <PendingAccounts /> : null}
      {config?.mail && me?.role === 'admin' ? <InviteForm /> : null}
      {me ? <UsersList me={me} /> : null}
    </>
  );
}
