import { Fragment } from 'react';
import { Link } from 'react-router';
import data from 'virtual:i18n/data';
import { decimal } from '../../../../core/format.js';
import type { ImportResult, ImportRow } from '../../../../core/imports.js';
import { distanceIn, type Units } from '../../../../core/units.js';
import { t, useT } from '../../../i18n/runtime';
import { useDisplay } from '../../../lib/display';

const TONE: Record<ImportRow['status'], string> = {
  would_create: 'text-bg-success',
  created: 'text-bg-success',
  would_add_track: 'text-bg-info',
  track_added: 'text-bg-info',
  duplicate: 'text-bg-secondary',
  skipped: 'text-bg-warning',
};

/** A row's status, as its badge says it. */
function statusLabel(status: ImportRow['status']): string {
  switch (status) {
    case 'would_create':
      return t('data.status.new');
    case 'created':
      return t('data.status.imported');
    case 'would_add_track':
      return t('data.status.addsTrack');
    case 'track_added':
      return t('data.status.trackAdded');
    case 'duplicate':
      return t('data.status.duplicate');
    case 'skipped':
      return t('data.status.skipped');
  }
}

/**
 * A file name or a row's source that may break after its separators (`-`, `_`, `.`, `/`, `:`), never
 * in the middle of a word: "garmin-forerunner-…-lake.fit" wraps as "garmin-" / "forerunner-" ...
 */
export function BreakableName({ text }: { text: string }) {
  const parts = text.split(/(?<=[-_./:])/);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {part}
          {index < parts.length - 1 ? <wbr /> : null}
        </Fragment>
      ))}
    </>
  );
}

/** "412 new runs, 5 tracks for stored runs, 3 duplicates, 17 skipped" (or "imported" once stored). */
export function summaryOf(result: ImportResult, stored: boolean): string {
  const count = (n: number) => ({ count: n });
  return [
    stored ? t('data.summary.imported', count(result.created)) : t('data.summary.new', count(result.created)),
    ...(result.tracks_added > 0
      ? [
          stored
            ? t('data.summary.tracksAdded', count(result.tracks_added))
            : t('data.summary.tracksForStored', count(result.tracks_added)),
        ]
      : []),
    t('data.summary.duplicates', count(result.duplicates)),
    t('data.summary.skipped', count(result.skipped)),
  ].join(', ');
}

interface PreviewProps {
  result: ImportResult;
  units: Units;
  stored: boolean;
  /** Sources of new rows the runner has unticked (preview only): they are left out of the import. */
  excluded?: ReadonlySet<string>;
  onToggle?: (source: string) => void;
}

/**
 * Every row of an import with its status and reason; distances in the runner's unit. In a
 * preview each new row can be unticked; a duplicate of a stored run shows that run and links to it.
 */
export function ImportPreview({ result, units, stored, excluded, onToggle }: PreviewProps) {
  useT(data);
  const display = useDisplay();
  const unit = display.labels.distance;
  return (
    <section aria-labelledby="import-summary">
      <p id="import-summary" className="fw-semibold" role="status">
        {summaryOf(result, stored)}
      </p>
      {/* Every row in the page's own flow (no box of its own to scroll); one card per row on a phone. */}
      <div className="table-responsive">
        <table className="table table-sm align-middle table-stack">
          <caption className="visually-hidden">{t('data.preview.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('data.preview.source')}</th>
              <th scope="col">{t('data.preview.status')}</th>
              <th scope="col">{t('data.preview.date')}</th>
              <th scope="col" className="text-end">
                {t('data.preview.distance', { unit })}
              </th>
              <th scope="col">{t('data.preview.time')}</th>
              <th scope="col">{t('data.preview.titleOrReason')}</th>
            </tr>
          </thead>
          <tbody>
            {result.rows.map((row, index) => {
              const run = row.entry ?? row.duplicate_of;
              return (
                <tr key={`${row.source}-${index}`}>
                  <td className="cell-text small" data-label={t('data.preview.source')}>
                    <span translate="no">
                      <BreakableName text={row.source} />
                    </span>
                  </td>
                  <td className="text-nowrap" data-label={t('data.preview.status')}>
                    <span>
                      {onToggle && row.status === 'would_create' ? (
                        <input
                          type="checkbox"
                          className="form-check-input me-2"
                          aria-label={t('data.preview.include', { source: row.source })}
                          checked={!excluded?.has(row.source)}
                          onChange={() => onToggle(row.source)}
                        />
                      ) : null}
                      <span className={`badge ${TONE[row.status]}`}>{statusLabel(row.status)}</span>
                    </span>
                  </td>
                  <td className="text-nowrap" data-label={t('data.preview.date')}>
                    {run ? display.formatDate(run.date) : ''}
                  </td>
                  <td className="text-end" data-label={t('data.preview.distance', { unit })}>
                    {run ? decimal(Math.round(distanceIn(run.distance, units) * 100) / 100, 2) : ''}
                  </td>
                  <td data-label={t('data.preview.time')}>{run?.time ?? ''}</td>
                  <td
                    className="small cell-text"
                    data-label={row.reason ? t('data.preview.reason') : t('data.preview.title')}
                  >
                    {/* Nothing at all when there is nothing to say: an empty cell is no line of a phone's card. */}
                    {row.reason || row.entry?.title || row.duplicate_of ? (
                      <span>
                        {row.reason ?? (row.entry?.title ? <span translate="no">{row.entry.title}</span> : '')}
                        {row.duplicate_of ? (
                          <>
                            {' '}
                            <Link to={`/entry/${row.duplicate_of.id}`}>{t('data.preview.openStored')}</Link>
                          </>
                        ) : null}
                      </span>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
