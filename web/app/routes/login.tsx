import { useNavigate } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { LoginForm } from '../../features/auth/components/login-form';

export function Component() {
  const navigate = useNavigate();
  return (
    <>
      <PageTitle title="Login">Login</PageTitle>
      <div className="card">
        <div className="card-body">
          <LoginForm onSuccess={() => void navigate('/dashboard')} />
        </div>
      </div>
    </>
  );
}
