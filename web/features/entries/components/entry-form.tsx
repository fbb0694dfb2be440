import { useId, useState, type FormEvent } from 'react';
import entries from 'virtual:i18n/entries';
import { joinTime, padTimePart, splitTime } from '../../../../core/format.js';
import { MAX_SPEED_KMH, USUAL_SPEED_KMH } from '../../../../core/messages.js';
import type { Entry, EntryBody } from '../../../../core/schemas.js';
import { formatDuration, speedKmh } from '../../../../core/time.js';
import { useConfirm } from '../../../components/confirm-dialog';
import { FieldErrors as FieldErrorList, FormField } from '../../../components/form/form-field';
import { replaceOnType } from '../../../components/form/replace-on-type';
import { check } from '../../../components/form/form-errors';
import { useFormErrors } from '../../../components/form/use-form-errors';
import { t, useT } from '../../../i18n/runtime';
import type { FieldErrors } from '../../../lib/api-client';
import { useDisplay, type Display } from '../../../lib/display';
import {
  changedExtras,
  EMPTY_EXTRAS,
  extrasOf,
  MoreFields,
  ShoeSelect,
  type EntryExtrasValues,
  type ShoeChoice,
} from './entry-extras';

export interface EntryFormValues extends EntryExtrasValues {
  date: string;
  distance: string;
  hours: string;
  minutes: string;
  seconds: string;
}

/** An empty entry (SPEC §3): date and distance empty, time parts '00'; a new run's form dates it today (decision 039). */
export const EMPTY_ENTRY: EntryFormValues = {
  date: '',
  distance: '',
  hours: '00',
  minutes: '00',
  seconds: '00',
  ...EMPTY_EXTRAS,
};

/** The edit form's values: date as YYYY-MM-DD, time split with zero padding. */
export function entryToFormValues(
  entry: Pick<Entry, 'date' | 'distance' | 'time'> &
    Partial<Pick<Entry, 'title' | 'notes' | 'kind' | 'effort' | 'shoe_id'>>,
): EntryFormValues {
  return {
    date: entry.date.slice(0, 10),
    distance: String(entry.distance),
    ...splitTime(entry.time),
    ...extrasOf(entry),
  };
}

const TIME_PARTS = [
  { field: 'hours', label: 'entries.form.hours', max: 99 },
  { field: 'minutes', label: 'entries.form.minutes', max: 59 },
  { field: 'seconds', label: 'entries.form.seconds', max: 59 },
] as const;

/** The seconds of the time fields, or null when one of them is not two digits in range. */
function secondsOf(values: EntryFormValues): number | null {
  let total = 0;
  for (const [index, { field, max }] of TIME_PARTS.entries()) {
    const text = values[field].trim();
    if (!/^\d{0,2}$/.test(text) || Number(text) > max) return null;
    total += Number(text || 0) * [3600, 60, 1][index]!;
  }
  return total;
}

/** The API's message for a speed over MAX_SPEED_KMH, in the language (as the server sends it). */
const speedTooHigh = () => t('entries.form.speedTooHigh', { max: MAX_SPEED_KMH });

/**
 * The client's checks, with the API's messages. Nothing typed is dropped: a distance or a time
 * part that is not a number is an error, never read as another number. The speed rule (over
 * 50 km/h) names the distance and the time together.
 */
function validate(values: EntryFormValues, distanceKm: number | null): FieldErrors {
  const seconds = secondsOf(values);
  const typed = values.distance.trim() !== '';
  const tooFast =
    distanceKm !== null &&
    distanceKm > 0 &&
    seconds !== null &&
    seconds > 0 &&
    speedKmh(distanceKm, seconds) > MAX_SPEED_KMH;
  return check({
    date: [!values.date && t('entries.form.dateRequired')],
    distance: [
      !typed && t('entries.form.distanceRequired'),
      typed && distanceKm === null && t('entries.form.distanceNotANumber'),
      distanceKm !== null && !(distanceKm > 0) && t('entries.form.distanceNotPositive'),
      tooFast && speedTooHigh(),
    ],
    time: [
      seconds === null && t('entries.form.timeParts'),
      seconds === 0 && t('entries.form.timeNotPositive'),
      tooFast && speedTooHigh(),
    ],
  });
}

/** The server's speed error is on `time`; it is about the distance as much, so it shows under both. */
function speedOnBoth(errors: FieldErrors): FieldErrors {
  const message = speedTooHigh();
  const speed = errors.time?.includes(message);
  if (!speed || errors.distance?.includes(message)) return errors;
  return { ...errors, distance: [...(errors.distance ?? []), message] };
}

/** Why a run's speed is worth a second look (outside USUAL_SPEED_KMH), or null. */
export function unusualSpeed(distanceKm: number, seconds: number, display: Display): string | null {
  const kmh = speedKmh(distanceKm, seconds);
  if (kmh >= USUAL_SPEED_KMH.min && kmh <= USUAL_SPEED_KMH.max) return null;
  const limit = kmh > USUAL_SPEED_KMH.max ? USUAL_SPEED_KMH.max : USUAL_SPEED_KMH.min;
  const values = {
    distance: display.runDistance(distanceKm),
    distanceUnit: display.labels.distance,
    duration: formatDuration(seconds),
    speed: display.formatSpeed(kmh),
    limit: display.formatSpeed(limit),
    speedUnit: display.labels.speed,
  };
  return t(kmh > limit ? 'entries.form.unusualFaster' : 'entries.form.unusualSlower', values);
}

interface EntryFormProps {
  initial?: EntryFormValues;
  submitLabel?: string;
  pending?: boolean;
  /** The server's `errors` of the last failed submission. */
  serverErrors?: FieldErrors;
  onSubmit: (input: EntryBody) => void;
  /** The runner's shoes, for the shoe select; without them the run's shoe is left as it is. */
  shoes?: readonly ShoeChoice[] | undefined;
}

/** The one entry form: new entry, dashboard quick add, edit and admin edit. */
export function EntryForm({
  initial = EMPTY_ENTRY,
  submitLabel,
  pending = false,
  serverErrors = {},
  onSubmit,
  shoes,
}: EntryFormProps) {
  useT(entries);
  const display = useDisplay();
  // `initial.distance` is km, as the API has it; the field shows and takes the runner's unit, and
  // sends the stored km back while its text is unchanged (10 km shown as 6.21 mi stays 10 km).
  const [storedKm] = useState(() => (initial.distance.trim() ? Number(initial.distance) : null));
  const [values, setValues] = useState(() =>
    storedKm === null ? initial : { ...initial, distance: display.inputValue(storedKm) },
  );
  // The shoes may arrive after the form (a new run's default shoe with them): the shoe shown follows
  // `initial.shoeId` until the runner picks one, and nothing typed meanwhile is lost.
  const [initialShoe, setInitialShoe] = useState(initial.shoeId);
  if (initial.shoeId !== initialShoe) {
    setInitialShoe(initial.shoeId);
    setValues((old) => (old.shoeId === initialShoe ? { ...old, shoeId: initial.shoeId } : old));
  }
  const checks = useFormErrors({
    values,
    validate: (typed: EntryFormValues) => validate(typed, display.toKm(typed.distance, storedKm)),
    serverErrors,
    sources: { time: ['hours', 'minutes', 'seconds'], shoe_id: ['shoeId'] },
  });
  const errors = speedOnBoth(checks.errors);
  const { confirm, dialog } = useConfirm();
  const timeErrorId = useId();
  const set = (field: keyof EntryFormValues) => (value: string) => setValues((old) => ({ ...old, [field]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const distanceKm = display.toKm(values.distance, storedKm);
    const passed = checks.submit();
    const seconds = secondsOf(values);
    if (!passed || distanceKm === null || seconds === null) return;
    const unusual = unusualSpeed(distanceKm, seconds, display);
    if (
      unusual &&
      !(await confirm(unusual, {
        title: t('entries.form.unusualTitle'),
        confirmLabel: t('entries.form.unusualConfirm'),
        cancelLabel: t('entries.form.unusualCancel'),
        tone: 'primary',
      }))
    ) {
      return;
    }
    onSubmit({
      date: values.date,
      distance: distanceKm,
      time: joinTime(values.hours, values.minutes, values.seconds),
      ...changedExtras(initial, values),
    });
  };

  const timeInvalid = Boolean(errors.time?.length);

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="entry-form">
      <div className="row g-3 entry-form-pair">
        <div className="col-sm-6">
          <FormField
            label={t('entries.form.date')}
            type="date"
            name="date"
            required
            className=""
            value={values.date}
            onValueChange={set('date')}
            errors={errors.date}
            max={display.today()}
            addon={
              <button type="button" className="btn btn-outline-secondary" onClick={() => set('date')(display.today())}>
                {t('entries.form.today')}
              </button>
            }
          />
        </div>
        <div className="col-sm-6">
          <FormField
            label={t('entries.form.distance', { unit: display.labels.distance })}
            name="distance"
            inputMode="decimal"
            autoComplete="off"
            required
            className=""
            value={values.distance}
            onValueChange={set('distance')}
            errors={errors.distance}
          />
        </div>
      </div>
      <fieldset className="mt-3 mb-3">
        <legend className="form-label fs-6 mb-2">{t('entries.form.time')}</legend>
        <div className="row g-2 time-inputs">
          {TIME_PARTS.map(({ field, label }) => (
            <div className="col-4" key={field}>
              <FormField
                label={t(label)}
                name={`time_${field}`}
                inputMode="numeric"
                autoComplete="off"
                className=""
                value={values[field]}
                onValueChange={set(field)}
                {...replaceOnType(2, set(field))}
                onBlur={() => {
                  if (/^\d$/.test(values[field].trim())) set(field)(padTimePart(values[field]));
                }}
                invalid={timeInvalid}
                describedBy={timeInvalid ? timeErrorId : undefined}
              />
            </div>
          ))}
        </div>
        <FieldErrorList id={timeErrorId} errors={errors.time} />
      </fieldset>
      {shoes ? (
        <ShoeSelect shoes={shoes} keptShoeId={initial.shoeId} values={values} set={set} errors={errors} />
      ) : null}
      <MoreFields values={values} set={set} errors={errors} openAtFirst={hasExtras(initial)} />
      <button type="submit" className="btn btn-primary" disabled={pending}>
        {submitLabel ?? t('entries.form.submit')}
      </button>
      {dialog}
    </form>
  );
}

/** Whether a run has any of the fields folded under More. */
const hasExtras = (values: EntryExtrasValues) =>
  [values.title, values.notes, values.kind, values.effort].some((value) => value.trim() !== '');
