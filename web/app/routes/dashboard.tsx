import { PageTitle } from '../../components/page-title';
import { Panel } from '../../components/panel';
import { DashboardStats } from '../../features/dashboard/components/dashboard-stats';
import { CreateEntryForm } from '../../features/entries/components/create-entry-form';

export function Component() {
  return (
    <>
      <PageTitle title="Dashboard">Dashboard</PageTitle>
      <div className="row">
        <div className="col-xl-8">
          <DashboardStats />
        </div>
        <div className="col-xl-4">
          <Panel title="Add new Time Record">
            <CreateEntryForm />
          </Panel>
        </div>
      </div>
    </>
  );
}
