import { useId, useState } from 'react';
import data from 'virtual:i18n/data';
import type { ExportFormat } from '../../../../core/imports.js';
import { useT } from '../../../i18n/runtime';
import { exportRuns } from '../api/export-runs';

/** Download every run as CSV (a spreadsheet), JSON (with shoes and goals) or a zip (everything, tracks and files too). */
export function ExportPanel() {
  const t = useT(data);
  const id = useId();
  const [busy, setBusy] = useState<ExportFormat | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** What each download holds, in the order the panel offers them. */
  const downloads: { format: ExportFormat; label: string; holds: string }[] = [
    { format: 'csv', label: t('data.export.csv'), holds: t('data.export.csvHolds') },
    { format: 'json', label: t('data.export.json'), holds: t('data.export.jsonHolds') },
    { format: 'zip', label: t('data.export.zip'), holds: t('data.export.zipHolds') },
  ];
  const download = async (format: ExportFormat) => {
    setBusy(format);
    setError(null);
    try {
      await exportRuns(format);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : t('data.export.failed'));
    } finally {
      setBusy(null);
    }
  };
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="h4">
        {t('data.export.title')}
      </h2>
      <p className="text-body-secondary">{t('data.export.intro')}</p>
      <ul className="list-unstyled d-flex flex-column gap-3">
        {downloads.map(({ format, label, holds }) => (
          <li key={format} className="d-flex flex-wrap align-items-center gap-3">
            <button
              type="button"
              className="btn btn-outline-primary"
              disabled={busy !== null}
              aria-describedby={`${id}-${format}`}
              onClick={() => void download(format)}
            >
              {busy === format ? t('data.export.preparing') : label}
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
