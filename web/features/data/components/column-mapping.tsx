import { useId, useState, type FormEvent } from 'react';
import { DISTANCE_UNITS, type DistanceUnit, type ImportMapping } from '../../../../core/imports.js';

const FIELDS = [
  { key: 'date', label: 'Date', required: true },
  { key: 'distance', label: 'Distance', required: true },
  { key: 'time', label: 'Time', required: true },
  { key: 'title', label: 'Title', required: false },
  { key: 'notes', label: 'Notes', required: false },
] as const;

/** Guesses a column for a field from its name ("Distance (mi)" for distance). */
function guess(columns: string[], key: string): string {
  return columns.find((c) => c.toLowerCase().includes(key)) ?? '';
}

/** Which column of an unrecognised CSV is which: date, distance (and its unit), time, title, notes. */
export function ColumnMapping({
  columns,
  busy,
  onSubmit,
}: {
  columns: string[];
  busy: boolean;
  onSubmit: (mapping: ImportMapping) => void;
}) {
  const id = useId();
  const [chosen, setChosen] = useState<Record<string, string>>(() =>
    Object.fromEntries(FIELDS.map((f) => [f.key, f.required ? guess(columns, f.key) : ''])),
  );
  const [unit, setUnit] = useState<DistanceUnit>('km');
  const ready = FIELDS.every((f) => !f.required || chosen[f.key]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready) return;
    onSubmit({
      date: chosen.date!,
      distance: chosen.distance!,
      time: chosen.time!,
      distance_unit: unit,
      ...(chosen.title ? { title: chosen.title } : {}),
      ...(chosen.notes ? { notes: chosen.notes } : {}),
    });
  };

  return (
    <form className="border rounded p-3 mb-3" onSubmit={submit} aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="h6">
        Which column is which?
      </h2>
      <p className="small text-body-secondary">This CSV is not one we recognise. Its columns: {columns.join(', ')}.</p>
      <div className="row g-2">
        {FIELDS.map((field) => (
          <div className="col-12 col-sm-6 col-md-4" key={field.key}>
            <label className="form-label" htmlFor={`${id}-${field.key}`}>
              {field.label}
              {field.required ? '' : ' (optional)'}
            </label>
            <select
              id={`${id}-${field.key}`}
              className="form-select"
              value={chosen[field.key]}
              required={field.required}
              onChange={(e) => setChosen({ ...chosen, [field.key]: e.target.value })}
            >
              <option value="">{field.required ? 'Choose a column' : 'None'}</option>
              {columns.map((column) => (
                <option key={column} value={column}>
                  {column}
                </option>
              ))}
            </select>
          </div>
        ))}
        <div className="col-12 col-sm-6 col-md-4">
          <label className="form-label" htmlFor={`${id}-unit`}>
            Distance unit
          </label>
          <select
            id={`${id}-unit`}
            className="form-select"
            value={unit}
            onChange={(e) => setUnit(e.target.value as DistanceUnit)}
          >
            {DISTANCE_UNITS.map((u) => (
              <option key={u} value={u}>
                {u === 'km' ? 'Kilometres' : u === 'mi' ? 'Miles' : 'Metres'}
              </option>
            ))}
          </select>
        </div>
      </div>
      <button type="submit" className="btn btn-outline-primary mt-3" disabled={!ready || busy}>
        Preview again
      </button>
    </form>
  );
}
