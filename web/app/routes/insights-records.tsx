import insights from 'virtual:i18n/insights';
import { PageTitle } from '../../components/page-title';
import { PredictionsPanel } from '../../features/insights/components/predictions-panel';
import { RecordsPanel } from '../../features/insights/components/records-panel';
import { useT } from '../../i18n/runtime';

export function Component() {
  const t = useT(insights);
  return (
    <>
      <PageTitle title={t('insights.records.pageTitle')}>{t('insights.records.pageTitle')}</PageTitle>
      <div className="row">
        <div className="col-xl-7">
          <RecordsPanel />
        </div>
        <div className="col-xl-5">
          <PredictionsPanel />
        </div>
      </div>
    </>
  );
}
