import { useState } from 'react';
import { notify } from '../../../components/toast/toast-store';
import { fieldErrorsOf } from '../../../lib/api-client';
import { useCreateEntry } from '../api/create-entry';
import { EntryForm } from './entry-form';

/** Adds a run; afterwards the form starts over empty (dashboard) or `onCreated` leaves (new entry page). */
export function CreateEntryForm({ onCreated }: { onCreated?: () => void }) {
  const [generation, setGeneration] = useState(0);
  const mutation = useCreateEntry({
    onSuccess: () => {
      notify('New time record was added!', 'success');
      setGeneration((value) => value + 1);
      onCreated?.();
    },
  });
  return (
    <EntryForm
      key={generation}
      pending={mutation.isPending}
      serverErrors={fieldErrorsOf(mutation.error)}
      onSubmit={(input) => mutation.mutate(input)}
    />
  );
}
