import { useNavigate } from 'react-router';
import login from 'virtual:i18n/login';
import { PageTitle } from '../../components/page-title';
import { useT } from '../../i18n/runtime';
import { LoginForm } from '../../features/auth/components/login-form';

export function Component() {
  const t = useT(login);
  const navigate = useNavigate();
  return (
    <div className="row justify-content-center">
      <div className="col-md-8 col-lg-6">
        <PageTitle title={t('login.title')}>{t('login.title')}</PageTitle>
        <div className="card">
          <div className="card-body">
            <LoginForm onSuccess={() => void navigate('/dashboard')} />
          </div>
        </div>
      </div>
    </div>
  );
}
