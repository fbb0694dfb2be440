import { useNavigate } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { Panel } from '../../components/panel';
import { notify } from '../../components/toast/toast-store';
import { useUser } from '../../features/auth/api/get-me';
import { DeleteAccount } from '../../features/profile/components/delete-account';
import { PreferencesForm } from '../../features/profile/components/preferences-form';
import { ProfileForm } from '../../features/profile/components/profile-form';
import { WebhooksPanel } from '../../features/profile/components/webhooks-panel';
import { ApiTokens } from '../../features/tokens/components/api-tokens';
import { TwoFactorPanel } from '../../features/two-factor/components/two-factor-panel';
import profile from 'virtual:i18n/profile';
import webhooksTexts from 'virtual:i18n/webhooks';
import { useT } from '../../i18n/runtime';

export function Component() {
  const t = useT(profile);
  const tw = useT(webhooksTexts);
  const user = useUser();
  const navigate = useNavigate();
  // The session ends on /logout, the one way out (ended here, the profile's guard would send to /login).
  const onDeleted = () => {
    notify(t('profile.deleted'), 'success');
    void navigate('/logout', { replace: true });
  };
  return (
    <>
      <PageTitle title={t('profile.title')}>{t('profile.title')}</PageTitle>
      <div className="card mb-4">
        <div className="card-body">{user ? <ProfileForm user={user} /> : null}</div>
      </div>
      {user ? (
        <>
          <Panel title={t('profile.preferences.title')}>
            <PreferencesForm
              key={`${user.units}-${user.pace_format}-${user.date_format}-${user.theme}-${user.locale}-${user.max_heart_rate}-${user.resting_heart_rate}`}
              user={user}
            />
          </Panel>
          <div className="card mb-4">
            <div className="card-body">
              <TwoFactorPanel enabled={user.two_factor} />
            </div>
          </div>
          <Panel title={t('profile.tokens.title')}>
            <ApiTokens />
          </Panel>
          <Panel title={tw('webhooks.title')}>
            <WebhooksPanel />
          </Panel>
          <div id="delete-account">
            <Panel title={t('profile.delete.title')} className="border-danger">
              <DeleteAccount user={user} onDeleted={onDeleted} />
            </Panel>
          </div>
        </>
      ) : null}
    </>
  );
}
