/** A route's page (CONTRACT.md §22): its name to change, its runs fastest first, and their times over the years. */
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import routesTexts from 'virtual:i18n/routes';
import type { RouteDetail } from '../../../../core/routes/schemas.js';
import { PageTitle } from '../../../components/page-title';
import { Panel } from '../../../components/panel';
import { MissingScreen } from './missing-screen';
import { useT } from '../../../i18n/runtime';
import { ApiError } from '../../../lib/api-client';
import { useDisplay } from '../../../lib/display';
import { useRoute } from '../api/get-routes';
import { useRenameRoute } from '../api/rename-route';
import { EffortsChart, EffortsTable, RenameForm } from './effort-parts';

export function RouteDetails({
  id,
  renderMap,
}: {
  id: number;
  renderMap: (route: RouteDetail, label: string) => ReactNode;
}) {
  const t = useT(routesTexts);
  const display = useDisplay();
  const valid = Number.isSafeInteger(id) && id > 0;
  const route = useRoute(id, { enabled: valid });
  const rename = useRenameRoute();
  if (!valid || (route.error instanceof ApiError && route.error.status === 404)) {
    return (
      <MissingScreen
        title={t('routes.notFound.title')}
        body={t('routes.notFound.body')}
        back={t('routes.notFound.back')}
        to="/routes"
      />
    );
  }
  if (route.isError) return <p className="text-danger">{t('routes.route.loadError')}</p>;
  if (!route.data) {
    return (
      <p className="text-body-secondary" role="status">
        {t('routes.route.loading')}
      </p>
    );
  }
  const data = route.data;
  return (
    <>
      <PageTitle
        title={data.name}
        actions={
          <Link to="/routes" className="btn btn-outline-secondary">
            {t('routes.route.all')}
          </Link>
        }
      >
        <span translate="no">{data.name}</span>
      </PageTitle>
      <p className="text-body-secondary">
        {t('routes.route.summary', {
          count: data.run_count,
          distance: display.formatDistance(data.distance),
          unit: display.labels.distance,
        })}
      </p>
      <RenameForm
        key={data.name}
        name={data.name}
        pending={rename.isPending}
        error={rename.error}
        onRename={(name) => rename.mutateAsync({ id: data.id, name })}
      />
      {renderMap(data, t('routes.route.mapLabel'))}
      <Panel title={t('routes.route.chartTitle')} className="mt-4">
        <EffortsChart efforts={data.efforts} label={t('routes.route.chartLabel')} />
      </Panel>
      <Panel title={t('routes.route.effortsTitle')} flush>
        <EffortsTable efforts={data.efforts} label={t('routes.route.effortsLabel')} />
      </Panel>
    </>
  );
}
