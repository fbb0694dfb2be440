import { notify } from '../../../components/toast/toast-store';
import { fieldErrorsOf } from '../../../lib/api-client';
import { useEntry } from '../api/get-entry';
import { useUpdateEntry } from '../api/update-entry';
import { EntryForm, entryToFormValues } from './entry-form';

/** Loads a run and edits it: the runner's own edit screen and the admin's. */
export function EditEntryForm({ id, onUpdated }: { id: number; onUpdated: () => void }) {
  const entry = useEntry(id);
  const mutation = useUpdateEntry({
    onSuccess: () => {
      notify('Time record was updated!', 'success');
      onUpdated();
    },
  });
  if (entry.isError) return <p className="text-danger mb-0">This entry could not be loaded.</p>;
  if (!entry.data) return <p className="text-body-secondary mb-0">Loading…</p>;
  return (
    <EntryForm
      key={entry.data.id}
      initial={entryToFormValues(entry.data)}
      submitLabel="Update"
      pending={mutation.isPending}
      serverErrors={fieldErrorsOf(mutation.error)}
      onSubmit={(input) => mutation.mutate({ id, ...input })}
    />
  );
}
