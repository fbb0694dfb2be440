import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { OwnEntriesEnvelopeSchema, type EntrySort } from '../../../../core/schemas.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface UserEntriesParams {
  page: number;
  perPage?: number | undefined;
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
  sort?: EntrySort | undefined;
}

/** One user's runs and their totals, as GET /entry answers one's own (an admin reads anyone's). */
export async function getUserEntries(userId: number, params: UserEntriesParams, signal?: AbortSignal) {
  const { page, perPage, dateFrom, dateTo, sort } = params;
  return api.get(`/user/${userId}/entries`, OwnEntriesEnvelopeSchema, {
    query: { page, per_page: perPage, dateFrom, dateTo, sort },
    signal,
  });
}

export const userEntriesQueryOptions = (userId: number, params: UserEntriesParams) =>
  queryOptions({
    // Under "entries", so that every change of a run refreshes it.
    queryKey: queryKeys.entryList('all', { userId, ...params }),
    queryFn: ({ signal }) => getUserEntries(userId, params, signal),
    placeholderData: keepPreviousData,
  });

export const useUserEntries = (userId: number, params: UserEntriesParams, enabled = true) =>
  useQuery({ ...userEntriesQueryOptions(userId, params), enabled });
