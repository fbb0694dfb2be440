import routesTexts from 'virtual:i18n/routes';
import { PageTitle } from '../../components/page-title';
import { RoutesList } from '../../features/routes/components/routes-list';
import { RouteThumbnail } from '../../features/tracks/components/route-thumbnail';
import { useT } from '../../i18n/runtime';

/** The runner's routes (CONTRACT.md §22), each with a small map of its line. */
export function Component() {
  const t = useT(routesTexts);
  return (
    <>
      <PageTitle title={t('routes.list.title')}>{t('routes.list.title')}</PageTitle>
      <RoutesList renderMap={(route, label) => <RouteThumbnail polyline={route.polyline} label={label} />} />
    </>
  );
}
