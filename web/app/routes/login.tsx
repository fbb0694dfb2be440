import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router';
import login from 'virtual:i18n/login';
import { PageTitle } from '../../components/page-title';
import { useT } from '../../i18n/runtime';
import { LoginForm } from '../../features/auth/components/login-form';

// Two-factor sign-in's code step (§21) loads only when a login asks for a code (decision 012).
const CodeStep = lazy(() => import('./code-step'));

export function Component() {
  const t = useT(login);
  const navigate = useNavigate();
  const [challenge, setChallenge] = useState<string | null>(null);
  const toDashboard = () => void navigate('/dashboard');
  return (
    <>
      <PageTitle title={t('login.title')}>{t('login.title')}</PageTitle>
      <div className="card">
        <div className="card-body">
          {challenge ? (
            <Suspense>
              <CodeStep challenge={challenge} onRestart={() => setChallenge(null)} onSignedIn={toDashboard} />
            </Suspense>
          ) : (
            <LoginForm onSuccess={toDashboard} onChallenge={setChallenge} />
          )}
        </div>
      </div>
    </>
  );
}
