/**
 * The runner's segments (CONTRACT.md §22): stretches marked on a run's page, each with its distance,
 * how many efforts it has and the best; a new one shows as filling in until every run is matched.
 */
import { Link } from 'react-router';
import routesTexts from 'virtual:i18n/routes';
import { useT } from '../../../i18n/runtime';
import { useDisplay } from '../../../lib/display';
import { useSegmentList } from '../api/get-segments';
import { runPath } from './effort-parts';

export function segmentPath(id: number): string {
  return `/segments/${id}`;
}

export function FillingIn() {
  const t = useT(routesTexts);
  return (
    <span className="badge text-bg-info ms-2" role="status">
      {t('routes.segments.fillingIn')}
    </span>
  );
}

export function SegmentsList() {
  const t = useT(routesTexts);
  const display = useDisplay();
  const segments = useSegmentList();
  if (segments.isError) return <p className="text-danger">{t('routes.segments.loadError')}</p>;
  if (!segments.data) {
    return (
      <p className="text-body-secondary" role="status">
        {t('routes.segments.loading')}
      </p>
    );
  }
  if (segments.data.length === 0) {
    return (
      <div className="py-2">
        <p className="lead">{t('routes.segments.emptyTitle')}</p>
        <p>{t('routes.segments.empty')}</p>
        <Link to="/entries">{t('routes.segments.emptyLink')}</Link>
      </div>
    );
  }
  return (
    <div className="table-responsive">
      <table className="table align-middle" aria-label={t('routes.segments.tableLabel')}>
        <thead>
          <tr>
            <th scope="col">{t('routes.segments.name')}</th>
            <th scope="col">{t('routes.segments.distance', { unit: display.labels.distance })}</th>
            <th scope="col">{t('routes.segments.efforts')}</th>
            <th scope="col">{t('routes.segments.best')}</th>
          </tr>
        </thead>
        <tbody>
          {segments.data.map((segment) => (
            <tr key={segment.id}>
              <td>
                <Link to={segmentPath(segment.id)} translate="no">
                  {segment.name}
                </Link>
                {segment.matching ? <FillingIn /> : null}
              </td>
              <td>{display.formatDistance(segment.distance_m / 1000)}</td>
              <td>{segment.effort_count}</td>
              <td>
                {segment.best ? (
                  <Link to={runPath(segment.best.entry_id)}>
                    {t('routes.facts.bestOn', {
                      time: segment.best.time,
                      date: display.formatDate(segment.best.date),
                    })}
                  </Link>
                ) : (
                  '—'
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
