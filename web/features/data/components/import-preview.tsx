import { Fragment } from 'react';
import { Link } from 'react-router';
import type { ImportResult, ImportRow } from '../../../../core/imports.js';
import { distanceIn, unitLabels, type Units } from '../../../../core/units.js';
import { useDisplay } from '../../../lib/display';

const STATUS: Record<ImportRow['status'], { label: string; tone: string }> = {
  would_create: { label: 'New', tone: 'text-bg-success' },
  created: { label: 'Imported', tone: 'text-bg-success' },
  would_add_track: { label: 'Adds a track', tone: 'text-bg-info' },
  track_added: { label: 'Track added', tone: 'text-bg-info' },
  duplicate: { label: 'Duplicate', tone: 'text-bg-secondary' },
  skipped: { label: 'Skipped', tone: 'text-bg-warning' },
};

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

/** "1 run", "1,024 runs". */
export const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/** "412 new runs, 5 tracks for stored runs, 3 duplicates, 17 skipped" (or "imported" once stored). */
export function summaryOf(result: ImportResult, stored: boolean): string {
  return [
    plural(result.created, stored ? 'run imported' : 'new run', stored ? 'runs imported' : 'new runs'),
    ...(result.tracks_added > 0
      ? [plural(result.tracks_added, stored ? 'track added' : 'track for a stored run', stored ? 'tracks added' : 'tracks for stored runs')]
      : []),
    plural(result.duplicates, 'duplicate', 'duplicates'),
    `${result.skipped.toLocaleString('en')} skipped`,
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
  const unit = unitLabels(units).distance;
  const display = useDisplay();
  return (
    <section aria-labelledby="import-summary">
      <p id="import-summary" className="fw-semibold" role="status">
        {summaryOf(result, stored)}
      </p>
      {/* Every row in the page's own flow (no box of its own to scroll); one card per row on a phone. */}
      <div className="table-responsive">
        <table className="table table-sm align-middle table-stack">
          <caption className="visually-hidden">Rows of the import</caption>
          <thead>
            <tr>
              <th scope="col">Source</th>
              <th scope="col">Status</th>
              <th scope="col">Date</th>
              <th scope="col" className="text-end">
                Distance ({unit})
              </th>
              <th scope="col">Time</th>
              <th scope="col">Title or reason</th>
            </tr>
          </thead>
          <tbody>
            {result.rows.map((row, index) => {
              const run = row.entry ?? row.duplicate_of;
              return (
                <tr key={`${row.source}-${index}`}>
                  <td className="cell-text small" data-label="Source">
                    <span>
                      <BreakableName text={row.source} />
                    </span>
                  </td>
                  <td className="text-nowrap" data-label="Status">
                    <span>
                    {onToggle && row.status === 'would_create' ? (
                      <input
                        type="checkbox"
                        className="form-check-input me-2"
                        aria-label={`Import ${row.source}`}
                        checked={!excluded?.has(row.source)}
                        onChange={() => onToggle(row.source)}
                      />
                    ) : null}
                    <span className={`badge ${STATUS[row.status].tone}`}>{STATUS[row.status].label}</span>
                    </span>
                  </td>
                  <td className="text-nowrap" data-label="Date">
                    {run ? display.formatDate(run.date) : ''}
                  </td>
                  <td className="text-end" data-label={`Distance (${unit})`}>
                    {run ? (Math.round(distanceIn(run.distance, units) * 100) / 100).toFixed(2) : ''}
                  </td>
                  <td data-label="Time">{run?.time ?? ''}</td>
                  <td className="small cell-text" data-label={row.reason ? 'Reason' : 'Title'}>
                    {/* Nothing at all when there is nothing to say: an empty cell is no line of a phone's card. */}
                    {row.reason || row.entry?.title || row.duplicate_of ? (
                      <span>
                        {row.reason ?? row.entry?.title ?? ''}
                        {row.duplicate_of ? (
                          <>
                            {' '}
                            <Link to={`/entry/${row.duplicate_of.id}`}>Open the stored run</Link>
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
