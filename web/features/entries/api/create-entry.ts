import { useMutation, useQueryClient } from '@tanstack/react-query';
import { EntryEnvelopeSchema, type Entry, type EntryBody } from '../../../../core/schemas.js';
import { api } from '../../../lib/api-client';
import { invalidateRunData } from '../../../lib/query-keys';

export async function createEntry(input: EntryBody) {
  const result = await api.post('/entry', EntryEnvelopeSchema, { ...input });
  return result.entry;
}

export function useCreateEntry({ onSuccess }: { onSuccess?: (entry: Entry) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createEntry,
    onSuccess: async (entry) => {
      onSuccess?.(entry);
      await invalidateRunData(queryClient);
    },
  });
}
