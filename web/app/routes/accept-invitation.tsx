import accounts from 'virtual:i18n/accounts';
import { PageTitle } from '../../components/page-title';
import { useT } from '../../i18n/runtime';
import { AcceptInvitationForm } from '../../features/auth/components/account-link-forms';

export function Component() {
  const t = useT(accounts);
  return (
    <>
      <PageTitle title={t('accounts.invitation.title')}>{t('accounts.invitation.title')}</PageTitle>
      <div className="card">
        <div className="card-body">
          <AcceptInvitationForm />
        </div>
      </div>
    </>
  );
}
