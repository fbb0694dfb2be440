import { PageTitle } from '../../components/page-title';
import { useUser } from '../../features/auth/api/get-me';
import { ProfileForm } from '../../features/profile/components/profile-form';

export function Component() {
  const user = useUser();
  return (
    <div className="row justify-content-center">
      <div className="col-md-8 col-lg-6">
        <PageTitle title="My Profile">My Profile</PageTitle>
        <div className="card">
          <div className="card-body">{user ? <ProfileForm user={user} /> : null}</div>
        </div>
      </div>
    </div>
  );
}
