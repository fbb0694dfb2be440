import accounts from 'virtual:i18n/accounts';
import { PageTitle } from '../../components/page-title';
import { useT } from '../../i18n/runtime';
import { ForgotPasswordForm } from '../../features/auth/components/account-link-forms';

export function Component() {
  const t = useT(accounts);
  return (
    <>
      <PageTitle title={t('accounts.forgot.title')}>{t('accounts.forgot.title')}</PageTitle>
      <div className="card">
        <div className="card-body">
          <ForgotPasswordForm />
        </div>
      </div>
    </>
  );
}
