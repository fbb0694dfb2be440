import { queryOptions, useQuery } from '@tanstack/react-query';
import { SegmentEnvelopeSchema, SegmentsEnvelopeSchema } from '../../../../core/routes/schemas.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** While a segment is still being matched against the runs, its answers are asked for again this often. */
export const FILLING_IN_POLL_MS = 1500;

export async function getSegmentList(signal?: AbortSignal) {
  return (await api.get('/segments', SegmentsEnvelopeSchema, { signal })).segments;
}

export async function getSegment(id: number, signal?: AbortSignal) {
  return (await api.get(`/segments/${id}`, SegmentEnvelopeSchema, { signal })).segment;
}

/** The runner's segments; read again while any of them is filling in (`matching`). */
export const segmentListQueryOptions = () =>
  queryOptions({
    queryKey: queryKeys.segments,
    queryFn: ({ signal }) => getSegmentList(signal),
    refetchInterval: (query) => (query.state.data?.some((segment) => segment.matching) ? FILLING_IN_POLL_MS : false),
  });

export const segmentQueryOptions = (id: number) =>
  queryOptions({
    queryKey: queryKeys.segment(id),
    queryFn: ({ signal }) => getSegment(id, signal),
    refetchInterval: (query) => (query.state.data?.matching ? FILLING_IN_POLL_MS : false),
  });

export const useSegmentList = () => useQuery(segmentListQueryOptions());
export const useSegment = (id: number, { enabled = true } = {}) => useQuery({ ...segmentQueryOptions(id), enabled });
