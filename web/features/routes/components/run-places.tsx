/**
 * On a run's page (CONTRACT.md §22): the route the run belongs to, with its rank there, and the
 * segments the run passes, each with its rank. Read from the run's track (already loaded by the page).
 */
import { Link } from 'react-router';
import routesTexts from 'virtual:i18n/routes';
import { Panel } from '../../../components/panel';
import { useT } from '../../../i18n/runtime';
import { useTrack } from '../../../lib/track-api';
import { routePath } from './routes-list';
import { segmentPath } from './segments-list';

export function RunPlaces({ entryId }: { entryId: number }) {
  const t = useT(routesTexts);
  const { data: track } = useTrack(entryId);
  if (!track || !track.route) return null;
  const { route, segments } = track.places;
  return (
    <Panel title={t('routes.run.title')}>
      {route ? (
        <p>
          {t('routes.run.route')}{' '}
          <Link to={routePath(route.id)} translate="no">
            {route.name}
          </Link>{' '}
          {route.rank !== null ? (
            <span className="text-body-secondary">{t('routes.run.rank', { rank: route.rank })}</span>
          ) : null}
        </p>
      ) : (
        <p className="text-body-secondary">{t('routes.run.noRoute')}</p>
      )}
      {segments.length > 0 ? (
        <table className="table table-sm mb-0" aria-label={t('routes.run.segmentsLabel')}>
          <thead>
            <tr>
              <th scope="col">{t('routes.run.segment')}</th>
              <th scope="col">{t('routes.efforts.time')}</th>
              <th scope="col">{t('routes.efforts.rank')}</th>
            </tr>
          </thead>
          <tbody>
            {segments.map((segment, k) => (
              <tr key={`${segment.id}-${k}`}>
                <td>
                  <Link to={segmentPath(segment.id)} translate="no">
                    {segment.name}
                  </Link>
                </td>
                <td>{segment.time}</td>
                <td>{segment.rank}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="text-body-secondary mb-0">{t('routes.run.noSegments')}</p>
      )}
    </Panel>
  );
}
