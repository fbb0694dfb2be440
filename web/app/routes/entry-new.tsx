import { PageTitle } from '../../components/page-title';
import { Panel } from '../../components/panel';
import { CreateEntryForm } from '../../features/entries/components/create-entry-form';
import { useGoBack } from '../../lib/use-go-back';

export function Component() {
  const goBack = useGoBack('/entries');
  return (
    <div className="col-lg-8">
      <PageTitle
        title="New Entry"
        actions={
          <button type="button" className="btn btn-outline-secondary" onClick={goBack}>
            Back
          </button>
        }
      >
        New Entry
      </PageTitle>
      <Panel title="Add new Time Record">
        <CreateEntryForm onCreated={goBack} />
      </Panel>
    </div>
  );
}
