import routesTexts from 'virtual:i18n/routes';
import { PageTitle } from '../../components/page-title';
import { SegmentsList } from '../../features/routes/components/segments-list';
import { useT } from '../../i18n/runtime';

/** The runner's segments (CONTRACT.md §22). */
export function Component() {
  const t = useT(routesTexts);
  return (
    <>
      <PageTitle title={t('routes.segments.title')}>{t('routes.segments.title')}</PageTitle>
      <SegmentsList />
    </>
  );
}
