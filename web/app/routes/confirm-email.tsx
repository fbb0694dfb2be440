import accounts from 'virtual:i18n/accounts';
import { PageTitle } from '../../components/page-title';
import { useT } from '../../i18n/runtime';
import { ConfirmEmail } from '../../features/auth/components/account-link-forms';

export function Component() {
  const t = useT(accounts);
  return (
    <>
      <PageTitle title={t('accounts.confirmEmail.title')}>{t('accounts.confirmEmail.title')}</PageTitle>
      <div className="card">
        <div className="card-body">
          <ConfirmEmail />
        </div>
      </div>
    </>
  );
}
