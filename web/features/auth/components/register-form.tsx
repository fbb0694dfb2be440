import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { PASSWORD_MIN_LENGTH } from '../../../../core/messages.js';
import { FormField } from '../../../components/form/form-field';
import { checkUserFields, mismatchUnderConfirmation } from '../../../components/form/form-errors';
import { useFormErrors } from '../../../components/form/use-form-errors';
import { fieldErrorsOf } from '../../../lib/api-client';
import register from 'virtual:i18n/register';
import { useT } from '../../../i18n/runtime';
import { useRegister } from '../api/register';

type RegisterValues = Record<'name' | 'email' | 'password' | 'password_confirmation', string>;

const EMPTY: RegisterValues = { name: '', email: '', password: '', password_confirmation: '' };

/** Registration; a session it starts sends the runner on through the guest pages' guard. */
export function RegisterForm() {
  const t = useT(register);
  const [values, setValues] = useState(EMPTY);
  const mutation = useRegister();
  const checks = useFormErrors({
    values,
    validate: (typed: RegisterValues) =>
      checkUserFields(
        { ...typed, name: typed.name.trim(), email: typed.email.trim() },
        { passwordRequired: true },
        {
          required: (field) =>
            ({
              name: t('register.nameRequired'),
              email: t('register.emailRequired'),
              password: t('register.passwordRequired'),
            })[field],
          invalidEmail: t('register.emailInvalid'),
          passwordMismatch: t('register.passwordMismatch'),
        },
      ),
    serverErrors: mismatchUnderConfirmation(fieldErrorsOf(mutation.error)),
    sources: { password_confirmation: ['password', 'password_confirmation'] },
  });
  const errors = checks.errors;
  const typed = values.password.length;
  // The rule, said as the password is typed: red (and counted) while it is not met.
  const tooShort = typed > 0 && typed < PASSWORD_MIN_LENGTH;
  const set = (field: keyof RegisterValues) => (value: string) => setValues((old) => ({ ...old, [field]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = { ...values, name: values.name.trim(), email: values.email.trim() };
    if (!checks.submit()) return;
    mutation.mutate(input);
  };

  if (mutation.waiting) {
    return (
      <div className="alert alert-success" role="status">
        {mutation.waiting}
      </div>
    );
  }
  return (
    <form onSubmit={submit} noValidate aria-label={t('register.form')}>
      <FormField
        label={t('register.name')}
        name="name"
        autoComplete="name"
        required
        value={values.name}
        onValueChange={set('name')}
        errors={errors.name}
      />
      <FormField
        label={t('register.email')}
        type="email"
        name="email"
        autoComplete="email"
        required
        value={values.email}
        onValueChange={set('email')}
        errors={errors.email}
      />
      <FormField
        label={t('register.password')}
        type="password"
        name="password"
        autoComplete="new-password"
        required
        value={values.password}
        onValueChange={set('password')}
        errors={errors.password}
        hint={
          tooShort ? (
            <span className="text-danger-emphasis">
              {t('register.passwordTooShort', { min: PASSWORD_MIN_LENGTH, typed })}
            </span>
          ) : (
            t('register.passwordHint', { min: PASSWORD_MIN_LENGTH })
          )
        }
      />
      <FormField
        label={t('register.confirmPassword')}
        type="password"
        name="password_confirmation"
        autoComplete="new-password"
        required
        value={values.password_confirmation}
        onValueChange={set('password_confirmation')}
        errors={errors.password_confirmation}
      />
      <div className="d-flex flex-wrap align-items-center gap-3">
        <button type="submit" className="btn btn-primary" disabled={mutation.isPending}>
          {t('register.submit')}
        </button>
        <Link to="/login">{t('register.toLogin')}</Link>
      </div>
    </form>
  );
}
