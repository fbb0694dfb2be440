import { useId, useState, type FormEvent } from 'react';
import { joinTime, padTimePart, splitTime } from '../../../../core/format.js';
import {
  DISTANCE_NOT_POSITIVE_MESSAGE,
  requiredMessage,
  TIME_NOT_POSITIVE_MESSAGE,
} from '../../../../core/messages.js';
import type { Entry, EntryBody } from '../../../../core/schemas.js';
import { FieldErrors as FieldErrorList, FormField } from '../../../components/form/form-field';
import { check, hasErrors, mergeErrors } from '../../../components/form/form-errors';
import type { FieldErrors } from '../../../lib/api-client';
import { useUnits } from '../../../lib/units';
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

/** New entry defaults (SPEC §3): date and distance empty, time parts '00'. */
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
  { field: 'hours', label: 'Hours', max: 99 },
  { field: 'minutes', label: 'Minutes', max: 59 },
  { field: 'seconds', label: 'Seconds', max: 59 },
] as const;

function validate(values: EntryFormValues): FieldErrors {
  const distance = Number(values.distance);
  const parts = TIME_PARTS.map(({ field, max }) => ({ text: values[field].trim(), max }));
  const badPart = parts.some(({ text, max }) => !/^\d{0,2}$/.test(text) || Number(text) > max);
  const totalSeconds = parts.reduce((sum, { text }, index) => sum + Number(text || 0) * [3600, 60, 1][index]!, 0);
  return check({
    date: [!values.date && requiredMessage('date')],
    distance: [
      !values.distance.trim() && requiredMessage('distance'),
      Boolean(values.distance.trim()) && !(distance > 0) && DISTANCE_NOT_POSITIVE_MESSAGE,
    ],
    time: [
      badPart && 'Hours must be 00-99, minutes and seconds 00-59.',
      !badPart && totalSeconds === 0 && TIME_NOT_POSITIVE_MESSAGE,
    ],
  });
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
  submitLabel = 'Submit',
  pending = false,
  serverErrors = {},
  onSubmit,
  shoes,
}: EntryFormProps) {
  const units = useUnits();
  // `initial.distance` is km, as the API has it; the field shows and takes the runner's unit, and
  // sends the stored km back while its text is unchanged (10 km shown as 6.21 mi stays 10 km).
  const [storedKm] = useState(() => (initial.distance.trim() ? Number(initial.distance) : null));
  const [values, setValues] = useState(() =>
    storedKm === null ? initial : { ...initial, distance: units.inputValue(storedKm) },
  );
  // The shoes may arrive after the form (a new run's default shoe with them): the shoe shown follows
  // `initial.shoeId` until the runner picks one, and nothing typed meanwhile is lost.
  const [initialShoe, setInitialShoe] = useState(initial.shoeId);
  if (initial.shoeId !== initialShoe) {
    setInitialShoe(initial.shoeId);
    setValues((old) => (old.shoeId === initialShoe ? { ...old, shoeId: initial.shoeId } : old));
  }
  const [clientErrors, setClientErrors] = useState<FieldErrors>({});
  const errors = mergeErrors(clientErrors, serverErrors);
  const timeErrorId = useId();
  const set = (field: keyof EntryFormValues) => (value: string) => setValues((old) => ({ ...old, [field]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const failed = validate(values);
    setClientErrors(failed);
    if (hasErrors(failed)) return;
    onSubmit({
      date: values.date,
      distance: units.toKm(values.distance, storedKm) ?? Number(values.distance),
      time: joinTime(values.hours, values.minutes, values.seconds),
      ...changedExtras(initial, values),
    });
  };

  const timeInvalid = Boolean(errors.time?.length);

  return (
    <form onSubmit={submit} noValidate>
      <div className="row g-3">
        <div className="col-sm-6">
          <FormField
            label="Date"
            type="date"
            name="date"
            required
            className=""
            value={values.date}
            onValueChange={set('date')}
            errors={errors.date}
          />
        </div>
        <div className="col-sm-6">
          <FormField
            label={`Distance (${units.labels.distance})`}
            type="number"
            name="distance"
            inputMode="decimal"
            step="0.001"
            min="0"
            required
            className=""
            value={values.distance}
            onValueChange={set('distance')}
            errors={errors.distance}
          />
        </div>
      </div>
      <fieldset className="mt-3 mb-3">
        <legend className="form-label fs-6 mb-2">Time</legend>
        <div className="row g-2 time-inputs">
          {TIME_PARTS.map(({ field, label }) => (
            <div className="col-4" key={field}>
              <FormField
                label={label}
                name={`time_${field}`}
                inputMode="numeric"
                pattern="[0-9]*"
                maxLength={2}
                autoComplete="off"
                className=""
                value={values[field]}
                onValueChange={(value) => set(field)(value.replace(/\D/g, '').slice(0, 2))}
                onBlur={() => set(field)(padTimePart(values[field]))}
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
      <MoreFields values={values} set={set} errors={errors} />
      <button type="submit" className="btn btn-primary" disabled={pending}>
        {submitLabel}
      </button>
    </form>
  );
}
