import { useState, type FormEvent } from 'react';
import {
  DATE_FORMATS,
  LOCALES,
  PACE_FORMATS,
  type DateFormat,
  type Locale,
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
import profile from 'virtual:i18n/profile';
import { followUserLocale, LANGUAGES, t, useT } from '../../../i18n/runtime';
import { useUpdateProfile } from '../api/update-profile';

/** Each date format with an example of what it writes (its name as each language writes it). */
function dateOption(format: DateFormat): string {
  const example = formatDate('2026-08-14', format);
  if (format === 'auto') return t('profile.preferences.dateAuto', { example });
  if (format === 'MM/DD/YYYY') return t('profile.preferences.dateMdy', { example });
  if (format === 'DD/MM/YYYY') return t('profile.preferences.dateDmy', { example });
  return t('profile.preferences.dateYmd', { example });
}

/** The choices, in the current language (called at render). */
function choices() {
  return {
    units: [
      { value: 'km', label: t('profile.preferences.unitsKm') },
      { value: 'mi', label: t('profile.preferences.unitsMi') },
    ],
    /** Each choice with an example of what it writes. */
    pace: PACE_FORMATS.map((format) => ({
      value: format,
      label: t(format === 'clock' ? 'profile.preferences.paceClock' : 'profile.preferences.paceDecimal', {
        example: formatPace(5.35, 'km', format),
      }),
    })),
    date: DATE_FORMATS.map((format) => ({ value: format, label: dateOption(format) })),
    theme: [
      { value: 'auto', label: t('profile.preferences.themeAuto') },
      { value: 'light', label: t('profile.preferences.themeLight') },
      { value: 'dark', label: t('profile.preferences.themeDark') },
    ],
  };
}

const HEART_RATE_FIELDS = {
  max_heart_rate: UserUpdateBodySchema.shape.max_heart_rate,
  resting_heart_rate: UserUpdateBodySchema.shape.resting_heart_rate,
} as const;
type HeartRateField = keyof typeof HEART_RATE_FIELDS;

/** The message of a heart rate out of its range (the server's check, core/schemas/users.ts, in the language). */
const heartRateMessage = (field: HeartRateField) =>
  field === 'max_heart_rate'
    ? t('profile.preferences.maxHeartRateInvalid', { min: 100, max: 250 })
    : t('profile.preferences.restingHeartRateInvalid', { min: 25, max: 120 });

/** A heart rate as typed: null when blank (clears it), the number, or the check's message. */
function readHeartRate(field: HeartRateField, text: string): { value: number | null } | { error: string } {
  if (text.trim() === '') return { value: null };
  const parsed = HEART_RATE_FIELDS[field].safeParse(text.trim());
  if (parsed.success && typeof parsed.data === 'number') return { value: parsed.data };
  return { error: heartRateMessage(field) };
}

const heartRateText = (value: number | null) => (value === null ? '' : String(value));

/**
 * Units, pace and date formats, theme (CONTRACT.md §11, §18) and the heart-rate profile (§14), saved
 * with the profile update; the app follows at once.
 */
export function PreferencesForm({ user }: { user: User }) {
  useT(profile);
  const options = choices();
  const [units, setUnits] = useState<Units>(user.units);
  const [paceFormat, setPaceFormat] = useState<PaceFormat>(user.pace_format);
  const [dateFormat, setDateFormat] = useState<DateFormat>(user.date_format);
  const [theme, setTheme] = useState<Theme>(user.theme);
  const [locale, setLocale] = useState<Locale>(user.locale);
  const [maxHeartRate, setMaxHeartRate] = useState(heartRateText(user.max_heart_rate));
  const [restingHeartRate, setRestingHeartRate] = useState(heartRateText(user.resting_heart_rate));
  const mutation = useUpdateProfile({
    // The saved language first (the layout follows the saved user too), so the toast speaks it.
    onSuccess: () => void followUserLocale(locale).then(() => notify(t('profile.preferences.saved'), 'success')),
  });
  const checks = useFormErrors({
    values: { units, paceFormat, dateFormat, theme, locale, maxHeartRate, restingHeartRate },
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
    // A heart rate (and the language) is sent only when changed: absent leaves it as it is, null clears it.
    const changed = {
      ...(locale !== user.locale ? { locale } : {}),
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
      ...changed,
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <FormField
        label={t('profile.preferences.units')}
        name="units"
        value={units}
        onValueChange={(value) => setUnits(value === 'mi' ? 'mi' : 'km')}
        options={options.units}
        errors={errors.units}
      />
      <FormField
        label={t('profile.preferences.paceFormat')}
        name="pace_format"
        value={paceFormat}
        onValueChange={(value) => setPaceFormat(PACE_FORMATS.find((format) => format === value) ?? 'decimal')}
        options={options.pace}
        errors={errors.pace_format}
      />
      <FormField
        label={t('profile.preferences.dateFormat')}
        name="date_format"
        value={dateFormat}
        onValueChange={(value) => setDateFormat(DATE_FORMATS.find((format) => format === value) ?? 'MM/DD/YYYY')}
        options={options.date}
        errors={errors.date_format}
      />
      <FormField
        label={t('profile.preferences.theme')}
        name="theme"
        value={theme}
        onValueChange={(value) => setTheme(value === 'light' || value === 'dark' ? value : 'auto')}
        options={options.theme}
        errors={errors.theme}
      />
      <FormField
        label={t('profile.preferences.language')}
        name="locale"
        value={locale}
        onValueChange={(value) => setLocale(LOCALES.find((code) => code === value) ?? 'auto')}
        errors={errors.locale}
        options={[
          { value: 'auto', label: t('profile.preferences.languageAuto') },
          // Each language named in itself: not the app's text, in its own language.
          ...LANGUAGES.map(({ code, name }) => ({ value: code, label: name, lang: code, translate: 'no' as const })),
        ]}
      />
      <div className="row g-3 mb-3">
        <div className="col-sm-6">
          <FormField
            label={t('profile.preferences.maxHeartRate')}
            name="max_heart_rate"
            inputMode="numeric"
            autoComplete="off"
            className=""
            value={maxHeartRate}
            onValueChange={setMaxHeartRate}
            errors={errors.max_heart_rate}
            hint={t('profile.preferences.maxHeartRateHint', { min: 100, max: 250, highest: 220 })}
          />
        </div>
        <div className="col-sm-6">
          <FormField
            label={t('profile.preferences.restingHeartRate')}
            name="resting_heart_rate"
            inputMode="numeric"
            autoComplete="off"
            className=""
            value={restingHeartRate}
            onValueChange={setRestingHeartRate}
            errors={errors.resting_heart_rate}
            hint={t('profile.preferences.restingHeartRateHint', { min: 25, max: 120 })}
          />
        </div>
      </div>
      <button type="submit" className="btn btn-primary" disabled={mutation.isPending}>
        {t('profile.preferences.save')}
      </button>
    </form>
  );
}
