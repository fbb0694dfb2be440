import { Link } from 'react-router';
import { formatText } from '../../../../core/format.js';
import type { Entry } from '../../../../core/schemas.js';
import { EditLink } from '../../../components/edit-link';
import { TrashIcon } from '../../../components/icons';
import { useDisplay } from '../../../lib/display';
import { runEditPath, runPagePath, type RunPlace } from '../../../lib/run-paths';
import { KIND_LABELS } from './entry-extras';

/** A run as listed: the admin list adds its runner. */
export type EntryRow = Entry & { user?: { id: number; name: string } };

interface EntriesTableProps {
  entries: readonly EntryRow[];
  /** Whose pages the runs open: the runner's own, or the admin's (everyone's runs). */
  place?: RunPlace;
  onDelete?: (entry: EntryRow) => void;
  /** With a path, a User column links each runner there. */
  userPath?: (userId: number) => string;
  /** With the runner's shoes, a Shoe column (on wide screens) names each run's shoe. */
  shoeName?: (shoeId: number) => string | undefined;
}

/**
 * The runs of a list (the runner's, the admin's, a shoe's): each run's date opens its page,
 * before its edit pencil. On a phone each run is a card (styles.css `table-stack`); kind and
 * shoe show from desktop widths on.
 */
export function EntriesTable({ entries, place = 'own', onDelete, userPath, shoeName }: EntriesTableProps) {
  const display = useDisplay();
  const wide = 'd-none d-lg-table-cell';
  const columns = 8 + (userPath ? 1 : 0) + (shoeName ? 1 : 0);
  return (
    <div className="table-responsive">
      <table className="table table-striped table-hover align-middle table-stack">
        <thead>
          <tr>
            {userPath ? <th scope="col">User</th> : null}
            <th scope="col">Date</th>
            <th scope="col">Title</th>
            <th scope="col">Distance ({display.labels.distance})</th>
            <th scope="col">Time</th>
            <th scope="col">Avg. Speed ({display.labels.speed})</th>
            <th scope="col">Avg. Pace ({display.labels.pace})</th>
            <th scope="col" className={wide}>
              Kind
            </th>
            {shoeName ? (
              <th scope="col" className={wide}>
                Shoe
              </th>
            ) : null}
            <th scope="col" className="text-end">
              Actions
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.length === 0 ? (
            <tr>
              <td colSpan={columns} className="text-center text-body-secondary py-4">
                No entries found.
              </td>
            </tr>
          ) : (
            entries.map((entry) => {
              const date = display.formatDate(entry.date);
              return (
                <tr key={entry.id}>
                  {userPath ? (
                    <td data-label="User">
                      {entry.user ? <Link to={userPath(entry.user.id)}>{entry.user.name}</Link> : '—'}
                    </td>
                  ) : null}
                  <td data-label="Date" className="text-nowrap">
                    <Link to={runPagePath(entry.id, place)}>{date}</Link>
                  </td>
                  <td data-label="Title" className="cell-text">
                    {formatText(entry.title)}
                  </td>
                  <td data-label={`Distance (${display.labels.distance})`}>{display.formatDistance(entry.distance)}</td>
                  <td data-label="Time">{entry.time}</td>
                  <td data-label={`Avg. Speed (${display.labels.speed})`}>{display.formatSpeed(entry.speed)}</td>
                  <td data-label={`Avg. Pace (${display.labels.pace})`}>{display.runPace(entry)}</td>
                  <td className={wide}>{entry.kind ? KIND_LABELS[entry.kind] : '—'}</td>
                  {shoeName ? (
                    <td className={`${wide} cell-text`}>
                      {entry.shoe_id === null ? '—' : (shoeName(entry.shoe_id) ?? '—')}
                    </td>
                  ) : null}
                  <td className="text-end text-nowrap stack-actions">
                    <EditLink
                      to={runEditPath(entry.id, place)}
                      label={`Edit entry of ${date}`}
                      className={onDelete ? 'me-2' : ''}
                    />
                    {onDelete ? (
                      <button
                        type="button"
                        className="btn btn-sm btn-outline-danger"
                        aria-label={`Delete entry of ${date}`}
                        title="Delete"
                        onClick={() => onDelete(entry)}
                      >
                        <TrashIcon />
                      </button>
                    ) : null}
                  </td>
                </tr>
              );
            })
          )}
        </tbody>
      </table>
    </div>
  );
}
