import insights from 'virtual:i18n/insights';
import { PageTitle } from '../../components/page-title';
import { LoadPanels } from '../../features/insights/components/load-panels';
import { useT } from '../../i18n/runtime';

export function Component() {
  const t = useT(insights);
  return (
    <>
      <PageTitle title={t('insights.load.pageTitle')}>{t('insights.load.pageTitle')}</PageTitle>
      <LoadPanels />
    </>
  );
}
