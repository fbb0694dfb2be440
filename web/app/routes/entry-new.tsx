import { PageTitle } from '../../components/page-title';
import { Panel } from '../../components/panel';
import { CreateEntryForm } from '../../features/entries/components/create-entry-form';
import { useShoes } from '../../features/shoes/api/get-shoes';
import { useGoBack } from '../../lib/use-go-back';
import { BackButton } from '../../components/back-button';

export function Component() {
  const goBack = useGoBack('/entries');
  const shoes = useShoes();
  return (
    <div className="col-lg-8">
      <PageTitle title="New Entry" actions={<BackButton onClick={goBack} />}>
        New Entry
      </PageTitle>
      <Panel title="Add new Time Record">
        <CreateEntryForm onCreated={goBack} shoes={shoes.data} />
      </Panel>
    </div>
  );
}
