import { useState } from 'react';
import entries from 'virtual:i18n/entries';
import offline from 'virtual:i18n/offline';
import type { Entry } from '../../../../core/schemas.js';
import { notify } from '../../../components/toast/toast-store';
import { t, useT } from '../../../i18n/runtime';
import { fieldErrorsOf } from '../../../lib/api-client';
import { useDisplay } from '../../../lib/display';
import { useCreateEntry } from '../api/create-entry';
import { defaultShoeId, type ShoeChoice } from './entry-extras';
import { EMPTY_ENTRY, EntryForm } from './entry-form';

/**
 * Adds a run, dated today in the runner's time zone until they pick another day (decision 039);
 * afterwards the form starts over (dashboard) or `onCreated` leaves (new entry page).
 * With the runner's `shoes`, the default one is preselected. Without a network the run is queued
 * (offline-queue.ts) and sent later.
 */
export function CreateEntryForm({
  onCreated,
  onQueued,
  shoes,
}: {
  onCreated?: (entry: Entry) => void;
  onQueued?: () => void;
  shoes?: readonly ShoeChoice[] | undefined;
}) {
  useT(entries);
  useT(offline);
  const display = useDisplay();
  const [generation, setGeneration] = useState(0);
  const mutation = useCreateEntry({
    onSuccess: (entry) => {
      notify(t('entries.created'), 'success');
      setGeneration((value) => value + 1);
      onCreated?.(entry);
    },
    // No network: the run waits in the browser (WaitingRuns shows it) and the form starts over.
    onQueued: () => {
      notify(t('offline.queued'), 'info');
      setGeneration((value) => value + 1);
      onQueued?.();
    },
  });
  return (
    <EntryForm
      // A new form after each run added; the default shoe is preselected once the shoes arrive.
      key={generation}
      initial={{ ...EMPTY_ENTRY, date: display.today(), shoeId: defaultShoeId(shoes) }}
      shoes={shoes}
      pending={mutation.isPending}
      serverErrors={fieldErrorsOf(mutation.error)}
      onSubmit={(input) => mutation.mutate(input)}
    />
  );
}
