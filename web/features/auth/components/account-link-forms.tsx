/**
 * The screens of the mailed links (CONTRACT.md §21): ask for a reset link, choose a new password,
 * confirm an e-mail address, accept an invitation. The token travels in the URL's fragment.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import accounts from 'virtual:i18n/accounts';
import { FormField } from '../../../components/form/form-field';
import { check } from '../../../components/form/form-errors';
import { useFormErrors } from '../../../components/form/use-form-errors';
import { fieldErrorsOf } from '../../../lib/api-client';
import { useT } from '../../../i18n/runtime';
import {
  tokenOfFragment,
  useAcceptInvitation,
  useConfirmEmail,
  useForgotPassword,
  useResetPassword,
  useVerifyEmail,
} from '../api/account-links';

function ErrorAlert({ error }: { error: Error | null }) {
  return error ? (
    <div className="alert alert-danger" role="alert">
      {error.message}
    </div>
  ) : null;
}

function Done({ message }: { message: string }) {
  return (
    <div className="alert alert-success" role="status">
      {message}
    </div>
  );
}

function NoToken() {
  const t = useT(accounts);
  return (
    <div className="alert alert-warning" role="alert">
      {t('accounts.noToken')}
    </div>
  );
}

/** `/forgot-password`. */
export function ForgotPasswordForm() {
  const t = useT(accounts);
  const [email, setEmail] = useState('');
  const mutation = useForgotPassword();
  const checks = useFormErrors({
    values: { email },
    validate: (typed: { email: string }) => check({ email: [!typed.email.trim() && t('accounts.emailRequired')] }),
    serverErrors: fieldErrorsOf(mutation.error),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!checks.submit()) return;
    mutation.mutate(email.trim());
  };
  if (mutation.data) {
    return (
      <>
        <Done message={mutation.data.message} />
        <Link to="/login">{t('accounts.toLogin')}</Link>
      </>
    );
  }
  return (
    <form onSubmit={submit} noValidate aria-label={t('accounts.forgot.form')}>
      <p>{t('accounts.forgot.intro')}</p>
      <ErrorAlert error={fieldErrorsOf(mutation.error).email ? null : mutation.error} />
      <FormField
        label={t('accounts.email')}
        type="email"
        name="email"
        autoComplete="email"
        required
        value={email}
        onValueChange={setEmail}
        errors={checks.errors.email}
      />
      <div className="d-flex flex-wrap align-items-center gap-3">
        <button type="submit" className="btn btn-primary" disabled={mutation.isPending}>
          {t('accounts.forgot.submit')}
        </button>
        <Link to="/login">{t('accounts.toLogin')}</Link>
      </div>
    </form>
  );
}

type PasswordValues = { password: string; password_confirmation: string };

function usePasswordChecks(values: PasswordValues & { name?: string }, error: Error | null, withName: boolean) {
  const t = useT(accounts);
  return useFormErrors({
    values,
    validate: (typed: PasswordValues & { name?: string }) =>
      check({
        ...(withName ? { name: [!typed.name?.trim() && t('accounts.nameRequired')] } : {}),
        password: [!typed.password && t('accounts.passwordRequired')],
        password_confirmation: [typed.password !== typed.password_confirmation && t('accounts.passwordMismatch')],
      }),
    serverErrors: fieldErrorsOf(error),
  });
}

/** `/reset-password#token=...`. */
export function ResetPasswordForm() {
  const t = useT(accounts);
  const token = tokenOfFragment(window.location.hash);
  const [values, setValues] = useState<PasswordValues>({ password: '', password_confirmation: '' });
  const mutation = useResetPassword();
  const checks = usePasswordChecks(values, mutation.error, false);
  if (!token) return <NoToken />;
  const set = (field: keyof PasswordValues) => (value: string) => setValues((old) => ({ ...old, [field]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!checks.submit()) return;
    mutation.mutate({ token, ...values });
  };
  if (mutation.data) {
    return (
      <>
        <Done message={mutation.data.message} />
        <Link to="/login">{t('accounts.toLogin')}</Link>
      </>
    );
  }
  const tokenErrors = fieldErrorsOf(mutation.error).token;
  return (
    <form onSubmit={submit} noValidate aria-label={t('accounts.reset.form')}>
      {tokenErrors ? (
        <div className="alert alert-danger" role="alert">
          {tokenErrors[0]} <Link to="/forgot-password">{t('accounts.reset.again')}</Link>
        </div>
      ) : null}
      <FormField
        label={t('accounts.password')}
        type="password"
        name="password"
        autoComplete="new-password"
        required
        value={values.password}
        onValueChange={set('password')}
        errors={checks.errors.password}
      />
      <FormField
        label={t('accounts.passwordConfirmation')}
        type="password"
        name="password_confirmation"
        autoComplete="new-password"
        required
        value={values.password_confirmation}
        onValueChange={set('password_confirmation')}
        errors={checks.errors.password_confirmation}
      />
      <button type="submit" className="btn btn-primary" disabled={mutation.isPending}>
        {t('accounts.reset.submit')}
      </button>
    </form>
  );
}

/** Runs a link's request once when the screen opens (a second render in development runs nothing more). */
function useOnce(run: () => void) {
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    run();
  });
}

/** `/verify-email#token=...`: confirms the address and starts the session (the guest pages' guard then moves on). */
export function VerifyEmail() {
  const t = useT(accounts);
  const token = tokenOfFragment(window.location.hash);
  const mutation = useVerifyEmail();
  useOnce(() => {
    if (token) mutation.mutate(token);
  });
  if (!token) return <NoToken />;
  if (mutation.error) return <ErrorAlert error={mutation.error} />;
  return <p role="status">{t('accounts.verify.working')}</p>;
}

/** `/confirm-email#token=...`: the new e-mail address becomes the account's. */
export function ConfirmEmail() {
  const t = useT(accounts);
  const token = tokenOfFragment(window.location.hash);
  const mutation = useConfirmEmail();
  useOnce(() => {
    if (token) mutation.mutate(token);
  });
  if (!token) return <NoToken />;
  if (mutation.error) return <ErrorAlert error={mutation.error} />;
  if (mutation.data) return <Done message={t('accounts.confirmEmail.done', { email: mutation.data.email })} />;
  return <p role="status">{t('accounts.confirmEmail.working')}</p>;
}

/** `/accept-invitation#token=...`: the invitee's name and password make the account. */
export function AcceptInvitationForm() {
  const t = useT(accounts);
  const token = tokenOfFragment(window.location.hash);
  const [values, setValues] = useState({ name: '', password: '', password_confirmation: '' });
  const mutation = useAcceptInvitation();
  const checks = usePasswordChecks(values, mutation.error, true);
  if (!token) return <NoToken />;
  const set = (field: keyof typeof values) => (value: string) => setValues((old) => ({ ...old, [field]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!checks.submit()) return;
    mutation.mutate({ token, ...values, name: values.name.trim() });
  };
  const tokenErrors = fieldErrorsOf(mutation.error).token;
  return (
    <form onSubmit={submit} noValidate aria-label={t('accounts.invitation.form')}>
      {tokenErrors ? (
        <div className="alert alert-danger" role="alert">
          {tokenErrors[0]}
        </div>
      ) : null}
      <FormField
        label={t('accounts.name')}
        name="name"
        autoComplete="name"
        required
        value={values.name}
        onValueChange={set('name')}
        errors={checks.errors.name}
      />
      <FormField
        label={t('accounts.password')}
        type="password"
        name="password"
        autoComplete="new-password"
        required
        value={values.password}
        onValueChange={set('password')}
        errors={checks.errors.password}
      />
      <FormField
        label={t('accounts.passwordConfirmation')}
        type="password"
        name="password_confirmation"
        autoComplete="new-password"
        required
        value={values.password_confirmation}
        onValueChange={set('password_confirmation')}
        errors={checks.errors.password_confirmation}
      />
      <button type="submit" className="btn btn-primary" disabled={mutation.isPending}>
        {t('accounts.invitation.submit')}
      </button>
    </form>
  );
}
