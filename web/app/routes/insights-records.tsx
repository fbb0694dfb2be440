import { PageTitle } from '../../components/page-title';
import { PredictionsPanel } from '../../features/insights/components/predictions-panel';
import { RecordsPanel } from '../../features/insights/components/records-panel';

export function Component() {
  return (
    <>
      <PageTitle title="Records">Records</PageTitle>
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
