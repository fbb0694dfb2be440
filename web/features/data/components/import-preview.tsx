import type { ImportResult, ImportRow } from '../../../../core/imports.js';
import { distanceIn, unitLabels, type Units } from '../../../../core/units.js';
import { useDisplay } from '../../../lib/display';

const STATUS: Record<ImportRow['status'], { label: string; tone: string }> = {
  would_create: { label: 'New', tone: 'text-bg-success' },
  created: { label: 'Imported', tone: 'text-bg-success' },
  duplicate: { label: 'Duplicate', tone: 'text-bg-secondary' },
  skipped: { label: 'Skipped', tone: 'text-bg-warning' },
};

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/** "412 new runs, 3 duplicates, 17 skipped" (or "imported" once stored). */
export function summaryOf(result: ImportResult, stored: boolean): string {
  return [
    plural(result.created, stored ? 'run imported' : 'new run', stored ? 'runs imported' : 'new runs'),
    plural(result.duplicates, 'duplicate', 'duplicates'),
    `${result.skipped.toLocaleString('en')} skipped`,
  ].join(', ');
}

/** Every row of an import with its status and reason; distances in the runner's unit. */
export function ImportPreview({ result, units, stored }: { result: ImportResult; units: Units; stored: boolean }) {
  const unit = unitLabels(units).distance;
  const display = useDisplay();
  return (
    <section aria-labelledby="import-summary">
      <p id="import-summary" className="fw-semibold" role="status">
        {summaryOf(result, stored)}
      </p>
      <div className="table-responsive" style={{ maxHeight: '28rem' }} tabIndex={0} aria-label="Rows of the import">
        <table className="table table-sm align-middle">
          <thead className="sticky-top">
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
            {result.rows.map((row, index) => (
              <tr key={`${row.source}-${index}`}>
                <td className="text-break small">{row.source}</td>
                <td>
                  <span className={`badge ${STATUS[row.status].tone}`}>{STATUS[row.status].label}</span>
                </td>
                <td className="text-nowrap">{row.entry ? display.formatDate(row.entry.date) : ''}</td>
                <td className="text-end">
                  {row.entry ? (Math.round(distanceIn(row.entry.distance, units) * 100) / 100).toFixed(2) : ''}
                </td>
                <td>{row.entry?.time ?? ''}</td>
                <td className="small">{row.reason ?? row.entry?.title ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
