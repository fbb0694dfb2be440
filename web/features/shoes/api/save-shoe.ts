import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MessageSchema } from '../../../../core/schemas.js';
import { ShoeEnvelopeSchema, type ShoeUpdateBody } from '../../../../core/shoes.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** A new shoe (no `id`), or the given fields of one (with `id`). */
export type ShoeChange = ShoeUpdateBody & { id?: number };

export async function saveShoe({ id, ...input }: ShoeChange) {
  const result =
    id === undefined
      ? await api.post('/shoes', ShoeEnvelopeSchema, input)
      : await api.put(`/shoes/${id}`, ShoeEnvelopeSchema, input);
  return result.shoe;
}

export const deleteShoe = (id: number) => api.delete(`/shoes/${id}`, MessageSchema);

/** Adds or changes a shoe; the list (and which shoe is the default) is read again. */
export function useSaveShoe({ onSuccess }: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveShoe,
    onSuccess: async () => {
      onSuccess?.();
      await queryClient.invalidateQueries({ queryKey: queryKeys.shoes });
    },
  });
}

/** Deletes a shoe; its runs lose it, so they are read again too. */
export function useDeleteShoe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteShoe,
    onSuccess: () =>
      Promise.all([queryKeys.shoes, queryKeys.entries].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
