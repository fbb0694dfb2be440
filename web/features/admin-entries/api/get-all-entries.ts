import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { AllEntriesEnvelopeSchema } from '../../../../core/schemas.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface AllEntriesParams {
  page: number;
  perPage?: number | undefined;
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
}

/** Everyone's runs with their runner (admins only). */
export async function getAllEntries(params: AllEntriesParams, signal?: AbortSignal) {
  const { page, perPage, dateFrom, dateTo } = params;
  return api.get('/entry/all', AllEntriesEnvelopeSchema, {
    query: { page, per_page: perPage, dateFrom, dateTo },
    signal,
  });
}

export const allEntriesQueryOptions = (params: AllEntriesParams) =>
  queryOptions({
    queryKey: queryKeys.entryList('all', params),
    queryFn: ({ signal }) => getAllEntries(params, signal),
    placeholderData: keepPreviousData,
  });

export const useAllEntries = (params: AllEntriesParams) => useQuery(allEntriesQueryOptions(params));
