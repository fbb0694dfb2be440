import { useId, useState } from 'react';
import type { ExportFormat } from '../../../../core/imports.js';
import { exportRuns } from '../api/export-runs';

/** Download every run as CSV (a spreadsheet) or JSON (with shoes and goals: a complete copy). */
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
      <p className="text-body-secondary">
        CSV opens in a spreadsheet; JSON also holds your shoes and goals. Either can be imported again here or into
        another Running Times.
      </p>
      <div className="d-flex flex-wrap gap-2">
        {(['csv', 'json'] as const).map((format) => (
          <button
            key={format}
            type="button"
            className="btn btn-outline-primary"
            disabled={busy !== null}
            onClick={() => void download(format)}
          >
            {busy === format ? 'Preparing…' : `Download ${format.toUpperCase()}`}
          </button>
        ))}
      </div>
      {error ? (
        <div className="alert alert-danger mt-3" role="alert">
          {error}
        </div>
      ) : null}
    </section>
  );
}
