import { useQueryClient } from '@tanstack/react-query';
import login from 'virtual:i18n/login';
import { notify } from '../../components/toast/toast-store';
import { t, useT } from '../../i18n/runtime';
import { startSession } from '../../features/auth/api/get-me';
import { CodeStep } from '../../features/two-factor/components/code-step';

/**
 * The login's code step (§21), composed here so that all of it, the session it starts included,
 * is one chunk that /login loads only when a login asks for a code (decision 012's budget). Its
 * name does not start with `login-`: the login chunk then carries no list of its imports to preload
 * (vite.config.ts `FIRST_SCREENS`).
 */
export default function CodeStepOfLogin(props: { challenge: string; onRestart: () => void }) {
  useT(login);
  const queryClient = useQueryClient();
  return (
    <CodeStep
      challenge={props.challenge}
      onRestart={props.onRestart}
      onSignedIn={(answer) => {
        startSession(queryClient, answer.access_token, answer.user);
        notify(t('login.success'), 'success');
      }}
    />
  );
}
