import { Link } from 'react-router';
import admin from 'virtual:i18n/admin';
import { Panel } from '../../../components/panel';
import { splitAround, useT } from '../../../i18n/runtime';
import { useDisplay } from '../../../lib/display';
import { useUserEntries } from '../api/get-user-entries';

/** A user's runs in short for the admin: how many, how far, the last one, and the way to all of them. */
export function UserRuns({ userId, name }: { userId: number; name: string }) {
  const t = useT(admin);
  const display = useDisplay();
  // The newest run and the totals of all of them, in one request.
  const runs = useUserEntries(userId, { page: 1, perPage: 1 });
  const summary = runs.data?.summary;
  const last = runs.data?.entries.data[0];
  const [beforeNone, afterNone] = splitAround(t, 'admin.runs.none', 'name');
  const [beforeAll, afterAll] = splitAround(t, 'admin.runs.all', 'name');
  return (
    <Panel title={t('admin.runs.title')}>
      {runs.isError ? (
        <p className="text-danger mb-0">{t('admin.runs.loadError')}</p>
      ) : !summary ? (
        <p className="text-body-secondary mb-0">{t('admin.runs.loading')}</p>
      ) : summary.runs === 0 ? (
        <p className="mb-0">
          {beforeNone}
          <span translate="no">{name}</span>
          {afterNone}
        </p>
      ) : (
        <>
          <dl className="row">
            <dt className="col-sm-3">{t('admin.runs.runs')}</dt>
            <dd className="col-sm-9">{t('admin.runs.count', { count: summary.runs })}</dd>
            <dt className="col-sm-3">{t('admin.runs.distance')}</dt>
            <dd className="col-sm-9">
              {display.formatDistance(summary.distance)} {display.labels.distance}
            </dd>
            <dt className="col-sm-3">{t('admin.runs.lastRun')}</dt>
            <dd className="col-sm-9">
              {last ? (
                <Link to={`/admin/entry/${last.id}`}>
                  {t('admin.runs.lastRunLink', {
                    date: display.formatDate(last.date),
                    distance: display.runDistance(last.distance),
                    unit: display.labels.distance,
                    time: last.time,
                  })}
                </Link>
              ) : (
                '—'
              )}
            </dd>
          </dl>
          <Link to={`/admin/user/${userId}/entries`}>
            {beforeAll}
            <span translate="no">{name}</span>
            {afterAll}
          </Link>
        </>
      )}
    </Panel>
  );
}
