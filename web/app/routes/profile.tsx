import { useNavigate } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { Panel } from '../../components/panel';
import { notify } from '../../components/toast/toast-store';
import { useUser } from '../../features/auth/api/get-me';
import { DeleteAccount } from '../../features/profile/components/delete-account';
import { PreferencesForm } from '../../features/profile/components/preferences-form';
import { ProfileForm } from '../../features/profile/components/profile-form';
import { ApiTokens } from '../../features/tokens/components/api-tokens';

export function Component() {
  const user = useUser();
  const navigate = useNavigate();
  // The session ends on /logout, the one way out (ended here, the profile's guard would send to /login).
  const onDeleted = () => {
    notify('Your account was deleted.', 'success');
    void navigate('/logout', { replace: true });
  };
  return (
    <>
      <PageTitle title="My Profile">My Profile</PageTitle>
      <div className="card mb-4">
        <div className="card-body">{user ? <ProfileForm user={user} /> : null}</div>
      </div>
      {user ? (
        <>
          <Panel title="Preferences">
            <PreferencesForm
              key={`${user.units}-${user.pace_format}-${user.date_format}-${user.theme}-${user.max_heart_rate}-${user.resting_heart_rate}`}
              user={user}
            />
          </Panel>
          <Panel title="API tokens">
            <ApiTokens />
          </Panel>
          <div id="delete-account">
            <Panel title="Delete my account" className="border-danger">
              <DeleteAccount user={user} onDeleted={onDeleted} />
            </Panel>
          </div>
        </>
      ) : null}
    </>
  );
}
