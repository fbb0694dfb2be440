import { useLocation } from 'react-router';
import entries from 'virtual:i18n/entries';
import { PageTitle } from '../../components/page-title';
import { Panel } from '../../components/panel';
import { useT } from '../../i18n/runtime';
import { rememberAddedRun } from '../../features/entries/added-run';
import { CreateEntryForm } from '../../features/entries/components/create-entry-form';
import { useShoes } from '../../features/shoes/api/get-shoes';
import { useGoBack } from '../../lib/use-go-back';
import { BackButton } from '../../components/back-button';

export function Component() {
  const t = useT(entries);
  const goBack = useGoBack('/entries');
  const shoes = useShoes();
  // Opened from the entries list, which then shows the new run (even outside its filter).
  const fromList = (useLocation().state as { fromList?: boolean } | null)?.fromList === true;
  return (
    <>
      <PageTitle title={t('entries.new.title')} actions={<BackButton onClick={goBack} />}>
        {t('entries.new.title')}
      </PageTitle>
      <Panel title={t('entries.new.panel')}>
        <CreateEntryForm
          onCreated={(entry) => {
            if (fromList) rememberAddedRun(entry);
            goBack();
          }}
          onQueued={goBack}
          shoes={shoes.data}
        />
      </Panel>
    </>
  );
}
