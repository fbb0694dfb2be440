import { Link } from 'react-router';
import { formatDate, formatText } from '../../../../core/format.js';
import type { Entry } from '../../../../core/schemas.js';
import { PencilIcon, TrashIcon } from '../../../components/icons';
import { useUnits } from '../../../lib/units';

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
  const units = useUnits();
  return (
    <div className="table-responsive">
      <table className="table table-striped table-hover align-middle">
        <thead>
          <tr>
            {showUser ? <th scope="col">User</th> : null}
            <th scope="col">Date</th>
            <th scope="col">Title</th>
            <th scope="col">Distance ({units.labels.distance})</th>
            <th scope="col">Time</th>
            <th scope="col">Avg. Speed ({units.labels.speed})</th>
            <th scope="col">Avg. Pace ({units.labels.pace})</th>
            <th scope="col" className="text-end">
              Actions
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.length === 0 ? (
            <tr>
              <td colSpan={showUser ? 8 : 7} className="text-center text-body-secondary py-4">
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
                <td className="text-break">{formatText(entry.title)}</td>
                <td>{units.runDistance(entry.distance)}</td>
                <td>{entry.time}</td>
                <td>{units.formatSpeed(entry.speed)}</td>
                <td>{units.formatPace(entry.pace)}</td>
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
