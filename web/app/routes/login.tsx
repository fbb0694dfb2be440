import { lazy, Suspense, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import login from 'virtual:i18n/login';
import { PageTitle } from '../../components/page-title';
import { notify } from '../../components/toast/toast-store';
import { useT } from '../../i18n/runtime';
import { startSession } from '../../features/auth/api/get-me';
import { LoginForm } from '../../features/auth/components/login-form';

// The code step of two-factor sign-in (§21): its chunk loads only when a login asks for a code,
// so /login's first load stays within its budget (decision 012).
const CodeStep = lazy(() =>
  import('../../features/two-factor/components/code-step').then((module) => ({ default: module.CodeStep })),
);

export function Component() {
  const t = useT(login);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [challenge, setChallenge] = useState<string | null>(null);
  const toDashboard = () => void navigate('/dashboard');
  return (
    <>
      <PageTitle title={t('login.title')}>{t('login.title')}</PageTitle>
      <div className="card">
        <div className="card-body">
          {challenge ? (
            <Suspense fallback={null}>
              <CodeStep
                key={challenge}
                challenge={challenge}
                onSignedIn={(answer) => {
                  startSession(queryClient, answer.access_token, answer.user);
                  notify(t('login.success'), 'success');
                  toDashboard();
                }}
                onRestart={() => setChallenge(null)}
              />
            </Suspense>
          ) : (
            <LoginForm onSuccess={toDashboard} onChallenge={setChallenge} />
          )}
        </div>
      </div>
    </>
  );
}
