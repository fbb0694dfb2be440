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
import { UserUpdateBodySchema, type User } from '../../../../core/schemas.js';
import { FormField } from '../../../components/form/form-field';
import { notify } from '../../../components/toast/toast-store';
import { fieldErrorsOf } from '../../../lib/api-client';
import { useFormErrors } from '../../../components/form/use-form-errors';
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

const HEART_RATE_FIELDS = {
  max_heart_rate: UserUpdateBodySchema.shape.max_heart_rate,
  resting_heart_rate: UserUpdateBodySchema.shape.resting_heart_rate,
} as const;
type HeartRateField = keyof typeof HEART_RATE_FIELDS;

/** A heart rate as typed: null when blank (clears it), the number, or the server's own message. */
function readHeartRate(field: HeartRateField, text: string): { value: number | null } | { error: string } {
  if (text.trim() === '') return { value: null };
  const parsed = HEART_RATE_FIELDS[field].safeParse(text.trim());
  if (parsed.success && typeof parsed.data === 'number') return { value: parsed.data };
  return { error: parsed.error?.issues[0]?.message ?? 'Please enter a whole number of beats per minute.' };
}

const heartRateText = (value: number | null) => (value === null ? '' : String(value));

/**
 * Units, pace and date formats, theme (CONTRACT.md §11, §18) and the heart-rate profile (§14), saved
 * with the profile update; the app follows at once.
 */
export function PreferencesForm({ user }: { user: User }) {
  const [units, setUnits] = useState<Units>(user.units);
  const [paceFormat, setPaceFormat] = useState<PaceFormat>(user.pace_format);
  const [dateFormat, setDateFormat] = useState<DateFormat>(user.date_format);
  const [theme, setTheme] = useState<Theme>(user.theme);
  const [maxHeartRate, setMaxHeartRate] = useState(heartRateText(user.max_heart_rate));
  const [restingHeartRate, setRestingHeartRate] = useState(heartRateText(user.resting_heart_rate));
  const mutation = useUpdateProfile({ onSuccess: () => notify('Your preferences were saved!', 'success') });
  const checks = useFormErrors({
    values: { units, paceFormat, dateFormat, theme, maxHeartRate, restingHeartRate },
    validate: (typed) => {
      const max = readHeartRate('max_heart_rate', typed.maxHeartRate);
      const resting = readHeartRate('resting_heart_rate', typed.restingHeartRate);
      return {
        ...('error' in max ? { max_heart_rate: [max.error] } : {}),
        ...('error' in resting ? { resting_heart_rate: [resting.error] } : {}),
      };
    },
    serverErrors: fieldErrorsOf(mutation.error),
    sources: {
      pace_format: ['paceFormat'],
      date_format: ['dateFormat'],
      max_heart_rate: ['maxHeartRate'],
      resting_heart_rate: ['restingHeartRate'],
    },
  });
  const errors = checks.errors;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const max = readHeartRate('max_heart_rate', maxHeartRate);
    const resting = readHeartRate('resting_heart_rate', restingHeartRate);
    if (!checks.submit() || 'error' in max || 'error' in resting) return;
    // A heart rate is sent only when changed: absent leaves it as it is, null clears it.
    const heartRates = {
      ...(max.value !== user.max_heart_rate ? { max_heart_rate: max.value } : {}),
      ...(resting.value !== user.resting_heart_rate ? { resting_heart_rate: resting.value } : {}),
    };
    mutation.mutate({
      id: user.id,
      name: user.name,
      email: user.email,
      units,
      pace_format: paceFormat,
      date_format: dateFormat,
      theme,
      ...heartRates,
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
      <div className="row g-3 mb-3">
        <div className="col-sm-6">
          <FormField
            label="Maximum heart rate (bpm)"
            name="max_heart_rate"
            inputMode="numeric"
            autoComplete="off"
            className=""
            value={maxHeartRate}
            onValueChange={setMaxHeartRate}
            errors={errors.max_heart_rate}
            hint="100 to 250. The heart-rate zones of your runs are drawn from it. Left empty, they are drawn from the highest heart rate of your tracks (at most 220)."
          />
        </div>
        <div className="col-sm-6">
          <FormField
            label="Resting heart rate (bpm)"
            name="resting_heart_rate"
            inputMode="numeric"
            autoComplete="off"
            className=""
            value={restingHeartRate}
            onValueChange={setRestingHeartRate}
            errors={errors.resting_heart_rate}
            hint="25 to 120. Kept with your profile; the zones use the maximum only."
          />
        </div>
      </div>
      <button type="submit" className="btn btn-primary" disabled={mutation.isPending}>
        Save preferences
      </button>
    </form>
  );
}
