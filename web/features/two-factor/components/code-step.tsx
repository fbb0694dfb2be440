import { useState, type FormEvent } from 'react';
import twoFactor from 'virtual:i18n/twoFactor';
import type { AuthResponse } from '../../../../core/schemas.js';
import { FormField } from '../../../components/form/form-field';
import { fieldErrorsOf } from '../../../lib/api-client';
import { t, useT } from '../../../i18n/runtime';
import { useSignInWithCode } from '../api/sign-in-with-code';

/**
 * The login's second step (CONTRACT.md §21): a code from the authenticator app or a recovery code,
 * sent with the challenge the password earned. Loaded only when a login asks for it.
 */
export function CodeStep({
  challenge,
  onSignedIn,
  onRestart,
}: {
  challenge: string;
  onSignedIn: (answer: AuthResponse) => void;
  onRestart: () => void;
}) {
  useT(twoFactor);
  const signIn = useSignInWithCode(onSignedIn);
  const [code, setCode] = useState('');
  const [missing, setMissing] = useState(false);
  const serverErrors = fieldErrorsOf(signIn.error);
  const expired = Boolean(serverErrors.challenge);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const typed = code.trim();
    setMissing(typed === '');
    if (typed === '') return;
    signIn.mutate({ challenge, code: typed });
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t('twoFactor.step.title')}>
      <h2 className="h4">{t('twoFactor.step.title')}</h2>
      <p className="text-body-secondary">{t('twoFactor.step.intro')}</p>
      {signIn.error && !serverErrors.code ? (
        <div className="alert alert-danger" role="alert">
          {signIn.error.message}
        </div>
      ) : null}
      <FormField
        label={t('twoFactor.step.code')}
        name="code"
        autoComplete="one-time-code"
        autoFocus
        required
        value={code}
        onValueChange={setCode}
        errors={serverErrors.code ?? (missing ? [t('twoFactor.codeRequired')] : undefined)}
      />
      <div className="d-flex flex-wrap align-items-center gap-2">
        {expired ? null : (
          <button type="submit" className="btn btn-primary" disabled={signIn.isPending}>
            {t('twoFactor.step.submit')}
          </button>
        )}
        <button type="button" className={expired ? 'btn btn-primary' : 'btn btn-outline-secondary'} onClick={onRestart}>
          {t('twoFactor.step.restart')}
        </button>
      </div>
    </form>
  );
}
