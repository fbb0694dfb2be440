import entries from 'virtual:i18n/entries';
import { PageTitle } from '../../components/page-title';
import { Panel } from '../../components/panel';
import { useUser } from '../../features/auth/api/get-me';
import { useT } from '../../i18n/runtime';
import { EditEntryForm } from '../../features/entries/components/edit-entry-form';
import { useShoes } from '../../features/shoes/api/get-shoes';
import { useGoBack } from '../../lib/use-go-back';
import { BackButton } from '../../components/back-button';

/** The edit screen of a run; the runner's and the admin's routes both show it. */
export function EntryEditScreen({ id, fallback }: { id: number; fallback: string }) {
  const t = useT(entries);
  const goBack = useGoBack(fallback);
  const shoes = useShoes();
  const viewer = useUser();
  return (
    <>
      <PageTitle title={t('entries.edit.title')} actions={<BackButton onClick={goBack} />}>
        {t('entries.edit.title')}
      </PageTitle>
      <Panel title={t('entries.edit.panel')}>
        <EditEntryForm id={id} onUpdated={goBack} shoes={shoes.data} viewerId={viewer?.id} />
      </Panel>
    </>
  );
}
