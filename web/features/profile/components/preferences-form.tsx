import { useState, type FormEvent } from 'react';
import {
  DATE_FORMATS,
  PACE_FORMATS,
  type DateFormat,
  type PaceFormat,
  type Theme,
  type Units,
} from '../../../../core/preferences.js';
import { formatDate, formatPace } from '../../../../core/format.js';
import type { User } from '../../../../core/schemas.js';
import { FormField } from '../../../components/form/form-field';
import { notify } from '../../../components/toast/toast-store';
import { fieldErrorsOf } from '../../../lib/api-client';
import { useUpdateProfile } from '../api/update-profile';

const UNIT_OPTIONS = [
  { value: 'km', label: 'Kilometres (km, min/km, km/h)' },
  { value: 'mi', label: 'Miles (mi, min/mi, mph)' },
];
/** Each choice with an example of what it writes. */
const PACE_OPTIONS = PACE_FORMATS.map((format) => ({
  value: format,
  label: `${format === 'clock' ? 'Minutes and seconds' : 'Decimal minutes'} (${formatPace(5.35, 'km', format)})`,
}));
const DATE_OPTIONS = DATE_FORMATS.map((format) => ({
  value: format,
  label: `${format} (${formatDate('2026-08-14', format)})`,
}));

const THEME_OPTIONS = [
  { value: 'auto', label: 'Automatic (as the system)' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/** Units, pace and date formats and theme (CONTRACT.md §11, §18), saved with the profile update; the app follows at once. */
export function PreferencesForm({ user }: { user: User }) {
  const [units, setUnits] = useState<Units>(user.units);
  const [paceFormat, setPaceFormat] = useState<PaceFormat>(user.pace_format);
  const [dateFormat, setDateFormat] = useState<DateFormat>(user.date_format);
  const [theme, setTheme] = useState<Theme>(user.theme);
  const mutation = useUpdateProfile({ onSuccess: () => notify('Your preferences were saved!', 'success') });
  const errors = fieldErrorsOf(mutation.error);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    mutation.mutate({
      id: user.id,
      name: user.name,
      email: user.email,
      units,
      pace_format: paceFormat,
      date_format: dateFormat,
      theme,
    });
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
        label="Pace format"
        name="pace_format"
        value={paceFormat}
        onValueChange={(value) => setPaceFormat(PACE_FORMATS.find((format) => format === value) ?? 'decimal')}
        options={PACE_OPTIONS}
        errors={errors.pace_format}
      />
      <FormField
        label="Date format"
        name="date_format"
        value={dateFormat}
        onValueChange={(value) => setDateFormat(DATE_FORMATS.find((format) => format === value) ?? 'MM/DD/YYYY')}
        options={DATE_OPTIONS}
        errors={errors.date_format}
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
