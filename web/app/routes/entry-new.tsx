import { useLocation } from 'react-router';
import { PageTitle } from '../../components/page-title';
import { Panel } from '../../components/panel';
import { rememberAddedRun } from '../../features/entries/added-run';
import { CreateEntryForm } from '../../features/entries/components/create-entry-form';
import { useShoes } from '../../features/shoes/api/get-shoes';
import { useGoBack } from '../../lib/use-go-back';
import { BackButton } from '../../components/back-button';

export function Component() {
  const goBack = useGoBack('/entries');
  const shoes = useShoes();
  // Opened from the entries list, which then shows the new run (even outside its filter).
  const fromList = (useLocation().state as { fromList?: boolean } | null)?.fromList === true;
  return (
    <>
      <PageTitle title="New Entry" actions={<BackButton onClick={goBack} />}>
        New Entry
      </PageTitle>
      <Panel title="Add new Time Record">
        <CreateEntryForm
          onCreated={(entry) => {
            if (fromList) rememberAddedRun(entry);
            goBack();
          }}
          shoes={shoes.data}
        />
      </Panel>
    </>
  );
}
