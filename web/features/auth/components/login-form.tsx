import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { FormField } from '../../../components/form/form-field';
import { check } from '../../../components/form/form-errors';
import { useFormErrors } from '../../../components/form/use-form-errors';
import { notify } from '../../../components/toast/toast-store';
import { fieldErrorsOf } from '../../../lib/api-client';
import login from 'virtual:i18n/login';
import { t, useT } from '../../../i18n/runtime';
import { useAppConfig } from '../api/get-app-config';
import { useLogin } from '../api/login';

interface Credentials {
  email: string;
  password: string;
}

/**
 * Once the session starts, the guest pages' guard (`guestOnly`) takes the runner on to the dashboard:
 * one navigation, not a second one racing it.
 */
interface LoginFormProps {
  /** The password was right and the user has two-factor sign-in on: the code step takes the challenge (§21). */
  onChallenge?: (challenge: string) => void;
}

/** Login with the demo account prefilled when the server runs in demo mode. */
export function LoginForm({ onChallenge }: LoginFormProps) {
  const config = useAppConfig();
  if (config.isPending) return null;
  const demo = config.data?.demo_login ?? null;
  return (
    <LoginFields
      key={demo ? 'demo' : 'plain'}
      initial={demo ?? { email: '', password: '' }}
      demo={Boolean(demo)}
      mail={config.data?.mail ?? false}
      onChallenge={onChallenge}
    />
  );
}

function LoginFields({
  initial,
  demo,
  mail,
  onChallenge,
}: LoginFormProps & {
  initial: Credentials;
  demo: boolean;
  /** With mail on (CONTRACT.md §21), a link to ask for a password reset. */
  mail: boolean;
}) {
  useT(login);
  const [values, setValues] = useState(initial);
  const mutation = useLogin({
    onSuccess: () => notify(t('login.success'), 'success'),
    onChallenge,
  });
  const checks = useFormErrors({
    values,
    validate: (typed: Credentials) =>
      check({
        email: [!typed.email.trim() && t('login.emailRequired')],
        password: [!typed.password.trim() && t('login.passwordRequired')],
      }),
    serverErrors: fieldErrorsOf(mutation.error),
  });
  const errors = checks.errors;
  const set = (field: keyof Credentials) => (value: string) => setValues((old) => ({ ...old, [field]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const credentials = { email: values.email.trim(), password: values.password.trim() };
    if (!checks.submit()) return;
    mutation.mutate(credentials);
  };

  return (
    <form onSubmit={submit} noValidate aria-label={t('login.form')}>
      {mutation.error ? (
        <div className="alert alert-danger" role="alert">
          {mutation.error.message}
        </div>
      ) : null}
      {demo ? <div className="alert alert-info">{t('login.demo')}</div> : null}
      <FormField
        label={t('login.email')}
        type="email"
        name="email"
        autoComplete="email"
        required
        value={values.email}
        onValueChange={set('email')}
        errors={errors.email}
      />
      <FormField
        label={t('login.password')}
        type="password"
        name="password"
        autoComplete="current-password"
        required
        value={values.password}
        onValueChange={set('password')}
        errors={errors.password}
      />
      <div className="d-flex flex-wrap align-items-center gap-3">
        <button type="submit" className="btn btn-primary" disabled={mutation.isPending}>
          {t('login.submit')}
        </button>
        <Link to="/register">{t('login.toRegister')}</Link>
        {mail ? <Link to="/forgot-password">{t('login.forgot')}</Link> : null}
      </div>
    </form>
  );
}
