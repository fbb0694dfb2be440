import { useId, useState, type DragEvent } from 'react';
import data from 'virtual:i18n/data';
import { decimal } from '../../../../core/format.js';
import type { ImportMapping, ImportResult } from '../../../../core/imports.js';
import type { Units } from '../../../../core/units.js';
import { ProgressBar } from '../../../components/progress-bar';
import { t, useT } from '../../../i18n/runtime';
import { useImportRuns } from '../api/import-runs';
import { ColumnMapping } from './column-mapping';
import { ImportPreview } from './import-preview';

const ACCEPT = '.fit,.tcx,.gpx,.csv,.json,.zip,.gz';

const sizeText = (bytes: number) =>
  bytes >= 1024 * 1024
    ? t('data.size.mb', { size: decimal(bytes / 1024 / 1024, 1) })
    : t('data.size.kb', { size: String(Math.max(1, Math.round(bytes / 1024))) });

/**
 * Pick or drop files (or a zip), preview what an import would do (every row with its status
 * and reason), then store the new runs. The upload shows the bytes sent, then "processing".
 */
/** "Import 3 runs", "Import 2 tracks", "Import 3 runs and 2 tracks". */
function importLabel(runs: number, tracks: number): string {
  if (tracks === 0) return t('data.import.submitRuns', { runs });
  if (runs === 0) return t('data.import.submitTracks', { tracks });
  return t('data.import.submitRunsAndTracks', { runs, tracks });
}

export function ImportPanel({ units }: { units: Units }) {
  useT(data);
  const id = useId();
  const [files, setFiles] = useState<File[]>([]);
  const [dragging, setDragging] = useState(false);
  const [sent, setSent] = useState<{ sent: number; total: number } | null>(null);
  const [preview, setPreview] = useState<ImportResult | null>(null);
  const [stored, setStored] = useState<ImportResult | null>(null);
  const [mapping, setMapping] = useState<ImportMapping | undefined>(undefined);
  const [excluded, setExcluded] = useState<ReadonlySet<string>>(new Set());
  const mutation = useImportRuns((s, total) => setSent({ sent: s, total }));
  const busy = mutation.isPending;
  const uploaded = sent !== null && sent.total > 0 && sent.sent >= sent.total;

  const choose = (list: FileList | null) => {
    if (!list || list.length === 0) return;
    setFiles(Array.from(list));
    setPreview(null);
    setStored(null);
    setMapping(undefined);
    setExcluded(new Set());
    mutation.reset();
  };

  const toggle = (source: string) =>
    setExcluded((now) => {
      const next = new Set(now);
      if (!next.delete(source)) next.add(source);
      return next;
    });

  const send = (dryRun: boolean, withMapping = mapping) => {
    setSent({ sent: 0, total: 0 });
    mutation.mutate(
      { files, dryRun, mapping: withMapping, exclude: dryRun ? undefined : [...excluded] },
      {
        onSuccess: (result) => {
          if (dryRun) {
            setPreview(result);
            setExcluded(new Set());
          } else {
            setStored(result);
            setPreview(null);
          }
        },
        onSettled: () => setSent(null),
      },
    );
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    choose(event.dataTransfer.files);
  };

  const unknownCsv = preview?.rows.find((row) => row.columns && row.columns.length > 0);
  const chosen = (preview?.created ?? 0) - excluded.size;
  // §13: a file may only give a stored run its track (a zip export into an account that has the runs).
  const tracks = preview?.tracks_added ?? 0;

  return (
    <section aria-labelledby={`${id}-title`} className="mb-4">
      <h2 id={`${id}-title`} className="h4">
        {t('data.import.title')}
      </h2>
      <p className="text-body-secondary">{t('data.import.intro')}</p>
      <div
        className={`border border-2 rounded p-4 mb-3 text-center ${dragging ? 'border-primary bg-primary-subtle' : 'border-dashed'}`}
        style={{ borderStyle: 'dashed' }}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <label htmlFor={`${id}-files`} className="form-label d-block">
          {t('data.import.drop')}
        </label>
        <input
          id={`${id}-files`}
          type="file"
          className="form-control"
          multiple
          accept={ACCEPT}
          onChange={(e) => choose(e.target.files)}
          disabled={busy}
        />
        {files.length > 0 ? (
          <p className="small mt-2 mb-0">
            {files.length === 1
              ? t('data.import.oneFile', { name: files[0]!.name, size: sizeText(files[0]!.size) })
              : t('data.import.files', { count: files.length, size: sizeText(files.reduce((n, f) => n + f.size, 0)) })}
          </p>
        ) : null}
      </div>
      <button
        type="button"
        className="btn btn-primary mb-3"
        disabled={files.length === 0 || busy}
        onClick={() => send(true)}
      >
        {t('data.import.preview')}
      </button>

      {busy && sent ? (
        <div className="mb-3" aria-live="polite">
          {uploaded ? (
            <p className="mb-1">
              <span className="spinner-border spinner-border-sm me-2" aria-hidden="true" />
              {t('data.import.processing')}
            </p>
          ) : (
            <>
              <p className="mb-1">{t('data.import.uploading')}</p>
              <ProgressBar
                value={sent.sent}
                max={sent.total || 1}
                label={t('data.import.upload')}
                valueText={t('data.import.sent', { sent: sizeText(sent.sent), total: sizeText(sent.total) })}
              />
            </>
          )}
        </div>
      ) : null}

      {mutation.error ? (
        <div className="alert alert-danger" role="alert">
          {mutation.error.message}
        </div>
      ) : null}

      {unknownCsv?.columns ? (
        <ColumnMapping
          key={unknownCsv.columns.join('\u0000')}
          columns={unknownCsv.columns}
          busy={busy}
          onSubmit={(chosen) => {
            setMapping(chosen);
            send(true, chosen);
          }}
        />
      ) : null}

      {preview ? (
        <>
          <ImportPreview result={preview} units={units} stored={false} excluded={excluded} onToggle={toggle} />
          <button
            type="button"
            className="btn btn-success"
            disabled={(chosen === 0 && tracks === 0) || busy}
            onClick={() => send(false)}
          >
            {importLabel(chosen, tracks)}
          </button>
        </>
      ) : null}

      {stored ? (
        <div className="alert alert-success" role="status">
          <ImportPreview result={stored} units={units} stored />
        </div>
      ) : null}
    </section>
  );
}
