import { useNavigate } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { LoginForm } from '../../features/auth/components/login-form';

export function Component() {
  const navigate = useNavigate();
  return (
    <div className="row justify-content-center">
      <div className="col-md-8 col-lg-6">
        <PageTitle title="Login">Login</PageTitle>
        <div className="card">
          <div className="card-body">
            <LoginForm onSuccess={() => void navigate('/dashboard')} />
          </div>
        </div>
      </div>
    </div>
  );
}
