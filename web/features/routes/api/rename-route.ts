import { useMutation, useQueryClient } from '@tanstack/react-query';
import { RouteEnvelopeSchema } from '../../../../core/routes/schemas.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export async function renameRoute({ id, name }: { id: number; name: string }) {
  return (await api.put(`/routes/${id}`, RouteEnvelopeSchema, { name })).route;
}

/** Renames a route; its list, its page and the run pages that name it are read again. */
export function useRenameRoute() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renameRoute,
    onSuccess: () =>
      Promise.all([queryKeys.routes, queryKeys.entries].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
