import { Link } from 'react-router';
import entriesTexts from 'virtual:i18n/entries';
import { formatText } from '../../../../core/format.js';
import type { Entry } from '../../../../core/schemas.js';
import { EditLink } from '../../../components/edit-link';
import { TrashIcon } from '../../../components/icons';
import { useT } from '../../../i18n/runtime';
import { useDisplay } from '../../../lib/display';
import { runEditPath, runPagePath, type RunPlace } from '../../../lib/run-paths';
import { KIND_KEYS } from './entry-extras';

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
  const t = useT(entriesTexts);
  const display = useDisplay();
  const distanceLabel = t('entries.table.distance', { unit: display.labels.distance });
  const speedLabel = t('entries.table.speed', { unit: display.labels.speed });
  const paceLabel = t('entries.table.pace', { unit: display.labels.pace });
  const wide = 'd-none d-lg-table-cell';
  const columns = 8 + (userPath ? 1 : 0) + (shoeName ? 1 : 0);
  return (
    <div className="table-responsive">
      <table className="table table-striped table-hover align-middle table-stack">
        <thead>
          <tr>
            {userPath ? <th scope="col">{t('entries.table.user')}</th> : null}
            <th scope="col">{t('entries.table.date')}</th>
            <th scope="col">{t('entries.table.title')}</th>
            <th scope="col">{distanceLabel}</th>
            <th scope="col">{t('entries.table.time')}</th>
            <th scope="col">{speedLabel}</th>
            <th scope="col">{paceLabel}</th>
            <th scope="col" className={wide}>
              {t('entries.table.kind')}
            </th>
            {shoeName ? (
              <th scope="col" className={wide}>
                {t('entries.table.shoe')}
              </th>
            ) : null}
            <th scope="col" className="text-end">
              {t('entries.table.actions')}
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.length === 0 ? (
            <tr>
              <td colSpan={columns} className="text-center text-body-secondary py-4">
                {t('entries.table.empty')}
              </td>
            </tr>
          ) : (
            entries.map((entry) => {
              const date = display.formatDate(entry.date);
              return (
                <tr key={entry.id}>
                  {userPath ? (
                    <td data-label={t('entries.table.user')}>
                      {entry.user ? (
                        <Link to={userPath(entry.user.id)} translate="no">
                          {entry.user.name}
                        </Link>
                      ) : (
                        '—'
                      )}
                    </td>
                  ) : null}
                  <td data-label={t('entries.table.date')} className="text-nowrap">
                    <Link to={runPagePath(entry.id, place)}>{date}</Link>
                  </td>
                  <td data-label={t('entries.table.title')} className="cell-text" translate="no">
                    {formatText(entry.title)}
                  </td>
                  <td data-label={distanceLabel}>{display.formatDistance(entry.distance)}</td>
                  <td data-label={t('entries.table.time')}>{entry.time}</td>
                  <td data-label={speedLabel}>{display.formatSpeed(entry.speed)}</td>
                  <td data-label={paceLabel}>{display.runPace(entry)}</td>
                  <td className={wide}>{entry.kind ? t(KIND_KEYS[entry.kind]) : '—'}</td>
                  {shoeName ? (
                    <td className={`${wide} cell-text`} translate="no">
                      {entry.shoe_id === null ? '—' : (shoeName(entry.shoe_id) ?? '—')}
                    </td>
                  ) : null}
                  <td className="text-end text-nowrap stack-actions">
                    <EditLink
                      to={runEditPath(entry.id, place)}
                      label={t('entries.editLabel', { date })}
                      className={onDelete ? 'me-2' : ''}
                    />
                    {onDelete ? (
                      <button
                        type="button"
                        className="btn btn-sm btn-outline-danger"
                        aria-label={t('entries.table.deleteLabel', { date })}
                        title={t('entries.table.delete')}
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
