import { useNavigate } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { RegisterForm } from '../../features/auth/components/register-form';

export function Component() {
  const navigate = useNavigate();
  return (
    <>
      <PageTitle title="Register">Register</PageTitle>
      <div className="card">
        <div className="card-body">
          <RegisterForm onSuccess={() => void navigate('/dashboard')} />
        </div>
      </div>
    </>
  );
}
