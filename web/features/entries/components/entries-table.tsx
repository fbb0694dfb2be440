import { Link } from 'react-router';
import { formatDate, formatNumber } from '../../../../core/format.js';
import type { Entry } from '../../../../core/schemas.js';
import { PencilIcon, TrashIcon } from '../../../components/icons';

/** A run as listed: the admin list adds its runner. */
export type EntryRow = Entry & { user?: { id: number; name: string } };

interface EntriesTableProps {
  entries: readonly EntryRow[];
  editPath: (entry: EntryRow) => string;
  onDelete: (entry: EntryRow) => void;
  /** With a path, a User column links each runner there. */
  userPath?: (userId: number) => string;
}

/** The entries table of both the runner's list and the admin list. */
export function EntriesTable({ entries, editPath, onDelete, userPath }: EntriesTableProps) {
  const showUser = Boolean(userPath);
  return (
    <div className="table-responsive">
      <table className="table table-striped table-hover align-middle">
        <thead>
          <tr>
            {showUser ? <th scope="col">User</th> : null}
            <th scope="col">Date</th>
            <th scope="col">Distance (km)</th>
            <th scope="col">Time</th>
            <th scope="col">Avg. Speed (km/h)</th>
            <th scope="col">Avg. Pace (min/km)</th>
            <th scope="col" className="text-end">
              Actions
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.length === 0 ? (
            <tr>
              <td colSpan={showUser ? 7 : 6} className="text-center text-body-secondary py-4">
                No entries found.
              </td>
            </tr>
          ) : (
            entries.map((entry) => (
              <tr key={entry.id}>
                {showUser && userPath ? (
                  <td>{entry.user ? <Link to={userPath(entry.user.id)}>{entry.user.name}</Link> : '—'}</td>
                ) : null}
                <td>{formatDate(entry.date)}</td>
                <td>{entry.distance}</td>
                <td>{entry.time}</td>
                <td>{formatNumber(entry.speed)}</td>
                <td>{formatNumber(entry.pace)}</td>
                <td className="text-end text-nowrap">
                  <Link
                    to={editPath(entry)}
                    className="btn btn-sm btn-outline-primary me-2"
                    aria-label={`Edit entry of ${formatDate(entry.date)}`}
                    title="Edit"
                  >
                    <PencilIcon />
                  </Link>
                  <button
                    type="button"
                    className="btn btn-sm btn-outline-danger"
                    aria-label={`Delete entry of ${formatDate(entry.date)}`}
                    title="Delete"
                    onClick={() => onDelete(entry)}
                  >
                    <TrashIcon />
                  </button>
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
