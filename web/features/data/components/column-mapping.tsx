import { useId, useState, type FormEvent } from 'react';
import data from 'virtual:i18n/data';
import { DISTANCE_UNITS, type DistanceUnit, type ImportMapping } from '../../../../core/imports.js';
import { splitAround, t, useT } from '../../../i18n/runtime';

const FIELDS = [
  { key: 'date', required: true },
  { key: 'distance', required: true },
  { key: 'time', required: true },
  { key: 'title', required: false },
  { key: 'notes', required: false },
] as const;

/** A field's name, as its label shows it. */
function fieldLabel(key: (typeof FIELDS)[number]['key']): string {
  switch (key) {
    case 'date':
      return t('data.mapping.date');
    case 'distance':
      return t('data.mapping.distance');
    case 'time':
      return t('data.mapping.time');
    case 'title':
      return t('data.mapping.title');
    case 'notes':
      return t('data.mapping.notes');
  }
}

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
  useT(data);
  const id = useId();
  const [chosen, setChosen] = useState<Record<string, string>>(() =>
    Object.fromEntries(FIELDS.map((f) => [f.key, f.required ? guess(columns, f.key) : ''])),
  );
  const [unit, setUnit] = useState<DistanceUnit>('km');
  const ready = FIELDS.every((f) => !f.required || chosen[f.key]);
  const [beforeColumns, afterColumns] = splitAround(t, 'data.mapping.intro', 'columns');

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
        {t('data.mapping.heading')}
      </h2>
      <p className="small text-body-secondary">
        {beforeColumns}
        <span translate="no">{columns.join(', ')}</span>
        {afterColumns}
      </p>
      <div className="row g-2">
        {FIELDS.map((field) => (
          <div className="col-12 col-sm-6 col-md-4" key={field.key}>
            <label className="form-label" htmlFor={`${id}-${field.key}`}>
              {field.required ? fieldLabel(field.key) : t('data.mapping.optional', { field: fieldLabel(field.key) })}
            </label>
            <select
              id={`${id}-${field.key}`}
              className="form-select"
              value={chosen[field.key]}
              required={field.required}
              onChange={(e) => setChosen({ ...chosen, [field.key]: e.target.value })}
            >
              <option value="">{field.required ? t('data.mapping.choose') : t('data.mapping.none')}</option>
              {columns.map((column) => (
                <option key={column} value={column} translate="no">
                  {column}
                </option>
              ))}
            </select>
          </div>
        ))}
        <div className="col-12 col-sm-6 col-md-4">
          <label className="form-label" htmlFor={`${id}-unit`}>
            {t('data.mapping.unit')}
          </label>
          <select
            id={`${id}-unit`}
            className="form-select"
            value={unit}
            onChange={(e) => setUnit(e.target.value as DistanceUnit)}
          >
            {DISTANCE_UNITS.map((u) => (
              <option key={u} value={u}>
                {u === 'km' ? t('data.mapping.km') : u === 'mi' ? t('data.mapping.mi') : t('data.mapping.m')}
              </option>
            ))}
          </select>
        </div>
      </div>
      <button type="submit" className="btn btn-outline-primary mt-3" disabled={!ready || busy}>
        {t('data.mapping.submit')}
      </button>
    </form>
  );
}
