import { useMemo, useState, type FormEvent } from 'react';
import { ROLES, type Role, type User, type UserUpdateBody } from '../../../core/schemas.js';
import type { FieldErrors } from '../../lib/api-client';
import common from 'virtual:i18n/common';
import { t as translate, useT } from '../../i18n/runtime';
import { checkUserFields, mismatchUnderConfirmation } from './form-errors';
import { useFormErrors } from './use-form-errors';
import { FormField } from './form-field';

export interface UserFormValues {
  name: string;
  email: string;
  password: string;
  password_confirmation: string;
  role: Role;
  timezone: string;
}

/** Each role's name in the current language (read when shown; `common` is loaded by the forms and lists that show it). */
const ROLE_LABELS: Readonly<Record<Role, string>> = {
  get user() {
    return translate('common.role.user');
  },
  get manager() {
    return translate('common.role.manager');
  },
  get admin() {
    return translate('common.role.admin');
  },
};

function timeZones(current: string): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return Array.from(new Set(['UTC', current, ...zones])).sort((a, b) => a.localeCompare(b));
}

interface UserFormProps {
  user: Pick<User, 'name' | 'email' | 'role' | 'timezone'>;
  /** The role selector, for those who may change this user's role. */
  showRole?: boolean;
  /** The time zone selector (the profile). */
  showTimezone?: boolean;
  submitLabel: string;
  pending?: boolean;
  serverErrors?: FieldErrors;
  /** The last submission's failure: a refused change puts the role back to the stored one. */
  failure?: unknown;
  /** What the form sends: a blank password means unchanged, so it is left out. */
  onSubmit: (payload: UserUpdateBody) => void;
}

/** Name, e-mail, optional new password (and role or time zone): the profile and the admin's user edit. */
export function UserForm({
  user,
  showRole = false,
  showTimezone = false,
  submitLabel,
  pending = false,
  serverErrors = {},
  failure = null,
  onSubmit,
}: UserFormProps) {
  const t = useT(common);
  const [values, setValues] = useState<UserFormValues>({
    name: user.name,
    email: user.email,
    password: '',
    password_confirmation: '',
    role: user.role,
    timezone: user.timezone,
  });
  const checks = useFormErrors({
    values,
    validate: (typed: UserFormValues) =>
      checkUserFields(
        { ...typed, name: typed.name.trim(), email: typed.email.trim() },
        { passwordRequired: false },
        {
          required: (field) =>
            ({
              name: t('common.userForm.nameRequired'),
              email: t('common.userForm.emailRequired'),
              password: t('common.userForm.passwordRequired'),
            })[field],
          invalidEmail: t('common.userForm.emailInvalid'),
          passwordMismatch: t('common.userForm.passwordMismatch'),
        },
      ),
    serverErrors: mismatchUnderConfirmation(serverErrors),
    sources: { password_confirmation: ['password', 'password_confirmation'] },
  });
  const errors = checks.errors;
  // A role the server refused (the last admin, a manager's own...) is not the user's role: the
  // selector goes back to the stored one; what the other fields hold stays.
  const [seenFailure, setSeenFailure] = useState(failure);
  if (failure !== seenFailure) {
    setSeenFailure(failure);
    if (failure) setValues((old) => ({ ...old, role: user.role }));
  }
  const zoneOptions = useMemo(
    // "America/North Dakota/New Salem": read as words, and narrow enough for a phone's select.
    () => timeZones(user.timezone).map((zone) => ({ value: zone, label: zone.replaceAll('_', ' ') })),
    [user.timezone],
  );
  const set = (field: keyof UserFormValues) => (value: string) => setValues((old) => ({ ...old, [field]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const name = values.name.trim();
    const email = values.email.trim();
    if (!checks.submit()) return;
    onSubmit({
      name,
      email,
      ...(values.password ? { password: values.password, password_confirmation: values.password_confirmation } : {}),
      ...(showRole ? { role: values.role } : {}),
      ...(showTimezone ? { timezone: values.timezone } : {}),
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <FormField
        label={t('common.userForm.name')}
        name="name"
        autoComplete="name"
        required
        value={values.name}
        onValueChange={set('name')}
        errors={errors.name}
      />
      <FormField
        label={t('common.userForm.email')}
        type="email"
        name="email"
        autoComplete="email"
        required
        value={values.email}
        onValueChange={set('email')}
        errors={errors.email}
      />
      {showRole ? (
        <FormField
          label={t('common.userForm.role')}
          name="role"
          required
          value={values.role}
          onValueChange={set('role')}
          errors={errors.role}
          options={ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] }))}
        />
      ) : null}
      {showTimezone ? (
        <FormField
          label={t('common.userForm.timezone')}
          name="timezone"
          value={values.timezone}
          onValueChange={set('timezone')}
          errors={errors.timezone}
          options={zoneOptions}
          hint={t('common.userForm.timezoneHint')}
          translate="no"
        />
      ) : null}
      <FormField
        label={t('common.userForm.password')}
        type="password"
        name="password"
        autoComplete="new-password"
        value={values.password}
        onValueChange={set('password')}
        errors={errors.password}
        hint={t('common.userForm.passwordHint')}
      />
      <FormField
        label={t('common.userForm.confirmPassword')}
        type="password"
        name="password_confirmation"
        autoComplete="new-password"
        value={values.password_confirmation}
        onValueChange={set('password_confirmation')}
        errors={errors.password_confirmation}
      />
      <button type="submit" className="btn btn-primary" disabled={pending}>
        {submitLabel}
      </button>
    </form>
  );
}

export { ROLE_LABELS };
