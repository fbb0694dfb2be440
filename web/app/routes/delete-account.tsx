import { Link } from 'react-router';
import profile from 'virtual:i18n/profile';
import { PageTitle } from '../../components/page-title';
import { useAppConfig } from '../../features/auth/api/get-app-config';
import { useUser } from '../../features/auth/api/get-me';
import { useT } from '../../i18n/runtime';

/** The demo's daily clean-up: nothing to ask for, every account goes. */
function DemoNotice() {
  const t = useT(profile);
  return (
    <>
      <p>{t('profile.deletion.demoCleanUp')}</p>
      <p>{t('profile.deletion.demoNoRequest')}</p>
    </>
  );
}

/** How a runner deletes their own account, from their profile. */
function HowToDelete({ signedIn }: { signedIn: boolean }) {
  const t = useT(profile);
  return (
    <>
      <p>{t('profile.deletion.intro')}</p>
      <ol>
        <li>{t(signedIn ? 'profile.deletion.openProfile' : 'profile.deletion.logInAndOpenProfile')}</li>
        <li>{t('profile.deletion.typeEmail')}</li>
        <li>{t('profile.deletion.press')}</li>
      </ol>
      <p>{t('profile.deletion.exportFirst')}</p>
      {signedIn ? (
        <Link to="/profile#delete-account" className="btn btn-danger">
          {t('profile.deletion.toProfile')}
        </Link>
      ) : (
        <Link to="/login" className="btn btn-primary">
          {t('profile.deletion.login')}
        </Link>
      )}
    </>
  );
}

export function Component() {
  const t = useT(profile);
  const config = useAppConfig();
  const user = useUser();
  return (
    <article>
      <PageTitle title={t('profile.deletion.title')}>{t('profile.deletion.title')}</PageTitle>
      {config.data ? config.data.demo_mode ? <DemoNotice /> : <HowToDelete signedIn={user !== null} /> : null}
    </article>
  );
}
