import { lazy, Suspense, useState } from 'react';
import login from 'virtual:i18n/login';
import { PageTitle } from '../../components/page-title';
import { useT } from '../../i18n/runtime';
import { LoginForm } from '../../features/auth/components/login-form';
import { useAppConfig } from '../../features/auth/api/get-app-config';

// Two-factor sign-in's code step (§21) loads only when a login asks for a code (decision 012).
const CodeStep = lazy(() => import('./code-step'));
// Single sign-on (§21) loads only when the server offers it or a provider sent the browser back.
const OidcSignIn = lazy(() => import('./oidc-sign-in'));

export function Component() {
  const t = useT(login);
  const oidc = useAppConfig().data?.oidc;
  const [challenge, setChallenge] = useState<string | null>(null);
  const [password, setPassword] = useState(false);
  // A provider sent the browser back (§21): the chunk takes the fragment out of the address at once.
  const [back] = useState(() => location.hash.startsWith('#oidc'));
  const hidden = oidc?.only === true && !password;
  return (
    <>
      <PageTitle title={t('login.title')}>{t('login.title')}</PageTitle>
      <div className="card">
        <div className="card-body">
          {challenge ? (
            <Suspense>
              <CodeStep challenge={challenge} onRestart={() => setChallenge(null)} />
            </Suspense>
          ) : (
            <>
              {oidc || back ? (
                <Suspense>
                  <OidcSignIn
                    name={oidc?.name}
                    onPassword={hidden ? () => setPassword(true) : undefined}
                    onChallenge={setChallenge}
                  />
                </Suspense>
              ) : null}
              {hidden ? null : <LoginForm onChallenge={setChallenge} />}
            </>
          )}
        </div>
      </div>
    </>
  );
}
