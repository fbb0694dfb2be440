import { useNavigate } from 'react-router';
import login from 'virtual:i18n/login';
import { PageTitle } from '../../components/page-title';
import { useT } from '../../i18n/runtime';
import { LoginForm } from '../../features/auth/components/login-form';

export function Component() {
  const t = useT(login);
  const navigate = useNavigate();
  return (
    <>
      <PageTitle title={t('login.title')}>{t('login.title')}</PageTitle>
      <div className="card">
        <div className="card-body">
          <LoginForm onSuccess={() => void navigate('/dashboard')} />
        </div>
      </div>
    </>
  );
}
