import { useId, useState } from 'react';
import type { ExportFormat } from '../../../../core/imports.js';
import { exportRuns } from '../api/export-runs';

/** What each download holds, in the order the panel offers them. */
const DOWNLOADS: { format: ExportFormat; label: string; holds: string }[] = [
  { format: 'csv', label: 'Download CSV', holds: 'Your runs, to open in a spreadsheet.' },
  { format: 'json', label: 'Download JSON', holds: 'Your runs with your shoes and goals.' },
  {
    format: 'zip',
    label: 'Download ZIP',
    holds:
      'Everything: every run with its track and original file (FIT, TCX or GPX), your shoes and goals, for moving to another Running Times server.',
  },
];

/** Download every run as CSV (a spreadsheet), JSON (with shoes and goals) or a zip (everything, tracks and files too). */
export function ExportPanel() {
  const id = useId();
  const [busy, setBusy] = useState<ExportFormat | null>(null);
  const [error, setError] = useState<string | null>(null);
  const download = async (format: ExportFormat) => {
    setBusy(format);
    setError(null);
    try {
      await exportRuns(format);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'The export failed.');
    } finally {
      setBusy(null);
    }
  };
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="h4">
        Export runs
      </h2>
      <p className="text-body-secondary">Each can be imported again here or into another Running Times.</p>
      <ul className="list-unstyled d-flex flex-column gap-3">
        {DOWNLOADS.map(({ format, label, holds }) => (
          <li key={format} className="d-flex flex-wrap align-items-center gap-3">
            <button
              type="button"
              className="btn btn-outline-primary"
              disabled={busy !== null}
              aria-describedby={`${id}-${format}`}
              onClick={() => void download(format)}
            >
              {busy === format ? 'Preparing…' : label}
            </button>
            <span id={`${id}-${format}`} className="text-body-secondary">
              {holds}
            </span>
          </li>
        ))}
      </ul>
      {error ? (
        <div className="alert alert-danger mt-3" role="alert">
          {error}
        </div>
      ) : null}
    </section>
  );
}
