import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SegmentEnvelopeSchema, type SegmentBody } from '../../../../core/routes/schemas.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export async function createSegment(body: SegmentBody) {
  return (await api.post('/segments', SegmentEnvelopeSchema, { ...body })).segment;
}

export async function renameSegment({ id, name }: { id: number; name: string }) {
  return (await api.put(`/segments/${id}`, SegmentEnvelopeSchema, { name })).segment;
}

/** The answer of a deletion is not needed: any body (or none) will do. */
export const deleteSegment = (id: number) => api.delete(`/segments/${id}`, (json: unknown) => json);

/** After a segment changes, the lists and every run page that names its efforts are out of date. */
function useRefreshSegments() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([queryKeys.segments, queryKeys.entries].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

/** Marks a new segment on a run; it answers at once and fills in (`matching`) while the runs are matched. */
export function useCreateSegment() {
  const refresh = useRefreshSegments();
  return useMutation({ mutationFn: createSegment, onSuccess: refresh });
}

export function useRenameSegment() {
  const refresh = useRefreshSegments();
  return useMutation({ mutationFn: renameSegment, onSuccess: refresh });
}

export function useDeleteSegment() {
  const queryClient = useQueryClient();
  const refresh = useRefreshSegments();
  return useMutation({
    mutationFn: deleteSegment,
    onSuccess: async (_answer, id) => {
      queryClient.removeQueries({ queryKey: queryKeys.segment(id) });
      await refresh();
    },
  });
}
