import { useMutation, useQueryClient } from '@tanstack/react-query';
import { EntryEnvelopeSchema } from '../../../../core/schemas.js';
import { api } from '../../../lib/api-client';
import { invalidateRunData } from '../../../lib/query-keys';

export interface EntryInput {
  date: string;
  distance: number;
  /** `HH:MM:SS` */
  time: string;
}

export async function createEntry(input: EntryInput) {
  const result = await api.post('/entry', EntryEnvelopeSchema, { ...input });
  return result.entry;
}

export function useCreateEntry({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createEntry,
    onSuccess: async () => {
      onSuccess?.();
      await invalidateRunData(queryClient);
    },
  });
}
