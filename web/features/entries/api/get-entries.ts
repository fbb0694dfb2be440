import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { OwnEntriesEnvelopeSchema, type EntrySort } from '../../../../core/schemas.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface EntryListParams {
  page: number;
  /** 15 when absent (the API's default). */
  perPage?: number | undefined;
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
  /** Newest first when absent (CONTRACT.md §18). */
  sort?: EntrySort | undefined;
}

/** The caller's own runs, one page at a time, with the totals of every run of the filter. */
export async function getEntries(params: EntryListParams, signal?: AbortSignal) {
  const { page, perPage, dateFrom, dateTo, sort } = params;
  return api.get('/entry', OwnEntriesEnvelopeSchema, {
    query: { page, per_page: perPage, dateFrom, dateTo, sort },
    signal,
  });
}

export const entriesQueryOptions = (params: EntryListParams) =>
  queryOptions({
    queryKey: queryKeys.entryList('mine', params),
    queryFn: ({ signal }) => getEntries(params, signal),
    placeholderData: keepPreviousData,
  });

export const useEntries = (params: EntryListParams) => useQuery(entriesQueryOptions(params));
