import entries from 'virtual:i18n/entries';
import { notify } from '../../../components/toast/toast-store';
import { t, useT } from '../../../i18n/runtime';
import { fieldErrorsOf } from '../../../lib/api-client';
import { useEntry } from '../api/get-entry';
import { useUpdateEntry } from '../api/update-entry';
import type { ShoeChoice } from './entry-extras';
import { EntryForm, entryToFormValues } from './entry-form';

/**
 * Loads a run and edits it: the runner's own edit screen and the admin's. `shoes` are the
 * viewer's (`viewerId`): offered only on the viewer's own runs; another runner's run keeps its shoe.
 */
export function EditEntryForm({
  id,
  onUpdated,
  shoes,
  viewerId,
}: {
  id: number;
  onUpdated: () => void;
  shoes?: readonly ShoeChoice[] | undefined;
  viewerId?: number | undefined;
}) {
  useT(entries);
  const entry = useEntry(id);
  const mutation = useUpdateEntry({
    onSuccess: () => {
      notify(t('entries.updated'), 'success');
      onUpdated();
    },
  });
  if (entry.isError) return <p className="text-danger mb-0">{t('entries.edit.loadError')}</p>;
  if (!entry.data) return <p className="text-body-secondary mb-0">{t('entries.loading')}</p>;
  return (
    <EntryForm
      key={entry.data.id}
      shoes={entry.data.user_id === viewerId ? shoes : undefined}
      initial={entryToFormValues(entry.data)}
      submitLabel={t('entries.edit.submit')}
      pending={mutation.isPending}
      serverErrors={fieldErrorsOf(mutation.error)}
      onSubmit={(input) => mutation.mutate({ id, ...input })}
    />
  );
}
