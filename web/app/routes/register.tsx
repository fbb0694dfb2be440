import { useNavigate } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { RegisterForm } from '../../features/auth/components/register-form';

export function Component() {
  const navigate = useNavigate();
  return (
    <div className="row justify-content-center">
      <div className="col-md-8 col-lg-6">
        <PageTitle title="Register">Register</PageTitle>
        <div className="card">
          <div className="card-body">
            <RegisterForm onSuccess={() => void navigate('/dashboard')} />
          </div>
        </div>
      </div>
    </div>
  );
}
