import { PageTitle } from '../../components/page-title';
import { Panel } from '../../components/panel';
import { useUser } from '../../features/auth/api/get-me';
import { PreferencesForm } from '../../features/profile/components/preferences-form';
import { ProfileForm } from '../../features/profile/components/profile-form';
import { ApiTokens } from '../../features/tokens/components/api-tokens';

export function Component() {
  const user = useUser();
  return (
    <div className="row justify-content-center">
      <div className="col-md-10 col-lg-8">
        <PageTitle title="My Profile">My Profile</PageTitle>
        <div className="card mb-4">
          <div className="card-body">{user ? <ProfileForm user={user} /> : null}</div>
        </div>
        {user ? (
          <>
            <Panel title="Preferences">
              <PreferencesForm key={`${user.units}-${user.theme}`} user={user} />
            </Panel>
            <Panel title="API tokens">
              <ApiTokens />
            </Panel>
          </>
        ) : null}
      </div>
    </div>
  );
}
