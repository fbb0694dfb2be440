import { useState, type FormEvent } from 'react';
import type { Theme, Units } from '../../../../core/preferences.js';
import type { User } from '../../../../core/schemas.js';
import { FormField } from '../../../components/form/form-field';
import { notify } from '../../../components/toast/toast-store';
import { fieldErrorsOf } from '../../../lib/api-client';
import { useUpdateProfile } from '../api/update-profile';

const UNIT_OPTIONS = [
  { value: 'km', label: 'Kilometres (km, min/km, km/h)' },
  { value: 'mi', label: 'Miles (mi, min/mi, mph)' },
];
const THEME_OPTIONS = [
  { value: 'auto', label: 'Automatic (as the system)' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/** Units and theme (CONTRACT.md §11), saved with the profile update; the app follows at once. */
export function PreferencesForm({ user }: { user: User }) {
  const [units, setUnits] = useState<Units>(user.units);
  const [theme, setTheme] = useState<Theme>(user.theme);
  const mutation = useUpdateProfile({ onSuccess: () => notify('Your preferences were saved!', 'success') });
  const errors = fieldErrorsOf(mutation.error);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    mutation.mutate({ id: user.id, name: user.name, email: user.email, units, theme });
  };

  return (
    <form onSubmit={submit} noValidate>
      <FormField
        label="Units"
        name="units"
        value={units}
        onValueChange={(value) => setUnits(value === 'mi' ? 'mi' : 'km')}
        options={UNIT_OPTIONS}
        errors={errors.units}
      />
      <FormField
        label="Theme"
        name="theme"
        value={theme}
        onValueChange={(value) => setTheme(value === 'light' || value === 'dark' ? value : 'auto')}
        options={THEME_OPTIONS}
        errors={errors.theme}
      />
      <button type="submit" className="btn btn-primary" disabled={mutation.isPending}>
        Save preferences
      </button>
    </form>
  );
}
