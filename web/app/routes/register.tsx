import register from 'virtual:i18n/register';
import { PageTitle } from '../../components/page-title';
import { useT } from '../../i18n/runtime';
import { RegisterForm } from '../../features/auth/components/register-form';

export function Component() {
  const t = useT(register);
  return (
    <>
      <PageTitle title={t('register.title')}>{t('register.title')}</PageTitle>
      <div className="card">
        <div className="card-body">
          <RegisterForm />
        </div>
      </div>
    </>
  );
}
