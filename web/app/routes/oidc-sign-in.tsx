import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import login from 'virtual:i18n/login';
import oidc from 'virtual:i18n/oidc';
import { notify } from '../../components/toast/toast-store';
import { t, useT } from '../../i18n/runtime';
import { api } from '../../lib/api-client';
import { parseLoginAnswer } from '../../lib/response-guards';
import { startSession } from '../../features/auth/api/get-me';
import { OIDC_LINK } from '../../features/auth/api/login';

/** The text of a reason the callback sent the browser back with (`#oidc_error=<reason>`). */
function reasonText(reason: string): string {
  switch (reason) {
    case 'denied':
      return t('oidc.error.denied');
    case 'expired':
      return t('oidc.error.expired');
    case 'failed':
      return t('oidc.error.failed');
    case 'unavailable':
      return t('oidc.error.unavailable');
    case 'link':
      return t('oidc.error.link');
    case 'demo':
      return t('oidc.error.demo');
    case 'closed':
      return t('oidc.error.closed');
    case 'pending':
      return t('oidc.error.pending');
    case 'email_unverified':
      return t('oidc.error.emailUnverified');
    case 'no_email':
      return t('oidc.error.noEmail');
    default:
      return t('oidc.error.other');
  }
}

/**
 * What the provider sent back in the fragment, from the moment it leaves the address bar until a
 * mounted sign-in has taken it: a render React discards (one that suspended or was interrupted) read
 * it too, and the render that counts must still find it.
 */
let kept: URLSearchParams | null = null;

/** Takes the fragment out of the address bar (kept until a mounted sign-in has it). */
function takeFragment(): URLSearchParams {
  if (location.hash.startsWith('#oidc')) {
    kept = new URLSearchParams(location.hash.slice(1));
    history.replaceState(history.state, '', location.pathname + location.search);
    const link = kept.get('oidc_link');
    if (link) sessionStorage.setItem(OIDC_LINK, link);
  }
  return kept ?? new URLSearchParams();
}

interface Props {
  /** The provider's name (OIDC_NAME); absent: no button, only the answer of a sign-in under way. */
  name: string | undefined;
  /** OIDC_ONLY: shows the password form (for admins, or to link an account). */
  onPassword: (() => void) | undefined;
  onChallenge: (challenge: string) => void;
}

/**
 * Single sign-on on the login page (§21): the "Sign in with <name>" button, the exchange of the
 * code a provider sent the browser back with, and the reason it was refused. A chunk of its own,
 * loaded only where single sign-on is on (decision 012's budget).
 */
export default function OidcSignIn({ name, onPassword, onChallenge }: Props) {
  useT(oidc);
  useT(login);
  const queryClient = useQueryClient();
  const [fragment] = useState(takeFragment);
  const code = fragment.get('oidc');
  const reason = fragment.get('oidc_error');
  const [failure, setFailure] = useState<string | null>(reason && reasonText(reason));
  const exchanged = useRef(false);

  useEffect(() => {
    // This sign-in has it now: a later visit to the login page starts afresh.
    kept = null;
    // A link waits for the account's password: show the form even under OIDC_ONLY.
    if (reason === 'link') onPassword?.();
    if (!code || exchanged.current) return;
    exchanged.current = true;
    api.post('/auth/oidc/exchange', parseLoginAnswer, { code }).then(
      (answer) => {
        if ('challenge' in answer) return onChallenge(answer.challenge);
        startSession(queryClient, answer.access_token, answer.user);
        notify(t('login.success'), 'success');
      },
      (error: Error) => setFailure(error.message),
    );
    // Once, with the fragment the page was opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <div className="mb-3">
      {failure ? (
        <div className={`alert ${reason === 'link' ? 'alert-info' : 'alert-danger'}`} role="alert">
          {failure}
        </div>
      ) : code ? (
        <p role="status">{t('oidc.signingIn')}</p>
      ) : null}
      {name ? (
        <a className="btn btn-outline-primary w-100" href="/api/v1/auth/oidc/start">
          {t('oidc.signInWith', { name })}
        </a>
      ) : null}
      {onPassword ? (
        <button type="button" className="btn btn-link px-0 mt-2" onClick={onPassword}>
          {t('oidc.usePassword')}
        </button>
      ) : null}
    </div>
  );
}
