import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { FormField } from '../../../components/form/form-field';
import { check, EMAIL_PATTERN, hasErrors, mergeErrors } from '../../../components/form/form-errors';
import { fieldErrorsOf, type FieldErrors } from '../../../lib/api-client';
import { useRegister, type RegisterInput } from '../api/register';

const EMPTY: RegisterInput = { name: '', email: '', password: '', password_confirmation: '' };

export function RegisterForm({ onSuccess }: { onSuccess: () => void }) {
  const [values, setValues] = useState(EMPTY);
  const [clientErrors, setClientErrors] = useState<FieldErrors>({});
  const mutation = useRegister({ onSuccess });
  const errors = mergeErrors(clientErrors, fieldErrorsOf(mutation.error));
  const set = (field: keyof RegisterInput) => (value: string) => setValues((old) => ({ ...old, [field]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = { ...values, name: values.name.trim(), email: values.email.trim() };
    const failed = check({
      name: [!input.name && 'The name field is required.'],
      email: [
        !input.email && 'The email field is required.',
        Boolean(input.email) && !EMAIL_PATTERN.test(input.email) && 'The email must be a valid email address.',
      ],
      password: [
        !input.password && 'The password field is required.',
        Boolean(input.password) &&
          input.password !== input.password_confirmation &&
          'The password confirmation does not match.',
      ],
    });
    setClientErrors(failed);
    if (hasErrors(failed)) return;
    mutation.mutate(input);
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Register">
      <FormField
        label="Name"
        name="name"
        autoComplete="name"
        required
        value={values.name}
        onValueChange={set('name')}
        errors={errors.name}
      />
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
        autoComplete="new-password"
        required
        value={values.password}
        onValueChange={set('password')}
        errors={errors.password}
        hint="At least 8 characters."
      />
      <FormField
        label="Confirm Password"
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
          Register
        </button>
        <Link to="/login">Already registered? Login</Link>
      </div>
    </form>
  );
}
