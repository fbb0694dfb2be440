import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { requiredMessage } from '../../../../core/messages.js';
import { FormField } from '../../../components/form/form-field';
import { check } from '../../../components/form/form-errors';
import { useFormErrors } from '../../../components/form/use-form-errors';
import { notify } from '../../../components/toast/toast-store';
import { fieldErrorsOf } from '../../../lib/api-client';
import { useAppConfig } from '../api/get-app-config';
import { useLogin } from '../api/login';

interface Credentials {
  email: string;
  password: string;
}

/** Login with the demo account prefilled when the server runs in demo mode. */
export function LoginForm({ onSuccess }: { onSuccess: () => void }) {
  const config = useAppConfig();
  if (config.isPending) return null;
  const demo = config.data?.demo_login ?? null;
  return (
    <LoginFields
      key={demo ? 'demo' : 'plain'}
      initial={demo ?? { email: '', password: '' }}
      demo={Boolean(demo)}
      onSuccess={onSuccess}
    />
  );
}

function LoginFields({ initial, demo, onSuccess }: { initial: Credentials; demo: boolean; onSuccess: () => void }) {
  const [values, setValues] = useState(initial);
  const mutation = useLogin({
    onSuccess: () => {
      notify('You logged in!', 'success');
      onSuccess();
    },
  });
  const checks = useFormErrors({
    values,
    validate: (typed: Credentials) =>
      check({
        email: [!typed.email.trim() && requiredMessage('email')],
        password: [!typed.password.trim() && requiredMessage('password')],
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
    <form onSubmit={submit} noValidate aria-label="Login">
      {mutation.error ? (
        <div className="alert alert-danger" role="alert">
          {mutation.error.message}
        </div>
      ) : null}
      {demo ? (
        <div className="alert alert-info">This is a demo: the form is filled in with the demo admin account.</div>
      ) : null}
      <FormField
        label="E-Mail Address"
        type="email"
        name="email"
        autoComplete="email"
        required
        value={values.email}
        onValueChange={set('email')}
        errors={errors.email}
      />
      <FormField
        label="Password"
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
          Login
        </button>
        <Link to="/register">No account yet? Register</Link>
      </div>
    </form>
  );
}
