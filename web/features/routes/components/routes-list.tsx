/**
 * The runner's routes (CONTRACT.md §22): each with a small map of its line, how often it was run,
 * its distance, the best time and the last date. Routes form by themselves, so the empty state says
 * how: run the same way again with a recorded track.
 */
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import routesTexts from 'virtual:i18n/routes';
import type { RouteSummary } from '../../../../core/routes/schemas.js';
import { splitAround, useT } from '../../../i18n/runtime';
import { useDisplay } from '../../../lib/display';
import { useRouteList } from '../api/get-routes';
import { runPath } from './effort-parts';

export function routePath(id: number): string {
  return `/routes/${id}`;
}

export function RoutesList({ renderMap }: { renderMap: (route: RouteSummary, label: string) => ReactNode }) {
  const t = useT(routesTexts);
  const display = useDisplay();
  const routes = useRouteList();
  if (routes.isError) return <p className="text-danger">{t('routes.list.loadError')}</p>;
  if (!routes.data) {
    return (
      <p className="text-body-secondary" role="status">
        {t('routes.list.loading')}
      </p>
    );
  }
  if (routes.data.length === 0) {
    const [before, after] = splitAround(t, 'routes.list.empty', 'link');
    return (
      <div className="py-2">
        <p className="lead">{t('routes.list.emptyTitle')}</p>
        <p>
          {before}
          <Link to="/data">{t('routes.list.emptyLink')}</Link>
          {after}
        </p>
      </div>
    );
  }
  return (
    <ul className="list-unstyled row row-cols-1 row-cols-md-2 row-cols-xl-3 g-3">
      {routes.data.map((route) => (
        <li key={route.id} className="col">
          <article className="card h-100" aria-labelledby={`route-${route.id}`}>
            <div className="card-body">
              <h2 className="h5 card-title" id={`route-${route.id}`}>
                <Link to={routePath(route.id)} translate="no">
                  {route.name}
                </Link>
              </h2>
              {renderMap(route, t('routes.list.mapLabel', { name: route.name }))}
              <dl className="route-facts mt-2 mb-0">
                <dt>{t('routes.facts.runs')}</dt>
                <dd>{route.run_count}</dd>
                <dt>{t('routes.facts.distance')}</dt>
                <dd>
                  {display.formatDistance(route.distance)} {display.labels.distance}
                </dd>
                <dt>{t('routes.facts.best')}</dt>
                <dd>
                  {route.best ? (
                    <Link to={runPath(route.best.entry_id)}>
                      {t('routes.facts.bestOn', { time: route.best.time, date: display.formatDate(route.best.date) })}
                    </Link>
                  ) : (
                    '—'
                  )}
                </dd>
                <dt>{t('routes.facts.last')}</dt>
                <dd>{display.formatDate(route.last_date)}</dd>
              </dl>
            </div>
          </article>
        </li>
      ))}
    </ul>
  );
}
