import accounts from 'virtual:i18n/accounts';
import { PageTitle } from '../../components/page-title';
import { useT } from '../../i18n/runtime';
import { ResetPasswordForm } from '../../features/auth/components/account-link-forms';

export function Component() {
  const t = useT(accounts);
  return (
    <>
      <PageTitle title={t('accounts.reset.title')}>{t('accounts.reset.title')}</PageTitle>
      <div className="card">
        <div className="card-body">
          <ResetPasswordForm />
        </div>
      </div>
    </>
  );
}
