import { useMutation, useQueryClient } from '@tanstack/react-query';
import { EntryEnvelopeSchema, type EntryBody } from '../../../../core/schemas.js';
import { api } from '../../../lib/api-client';
import { invalidateRunData, queryKeys } from '../../../lib/query-keys';

export async function updateEntry({ id, ...input }: EntryBody & { id: number }) {
  const result = await api.put(`/entry/${id}`, EntryEnvelopeSchema, input);
  return result.entry;
}

export function useUpdateEntry({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateEntry,
    onSuccess: async (entry) => {
      queryClient.setQueryData(queryKeys.entry(entry.id), entry);
      onSuccess?.();
      await invalidateRunData(queryClient);
    },
  });
}
