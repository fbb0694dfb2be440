import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { WeeklyReportSchema } from '../../../../core/schemas.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export async function getWeeklyReport(year: number, signal?: AbortSignal) {
  const result = await api.get('/report/weekly', WeeklyReportSchema, { query: { year }, signal });
  return result.weekly;
}

/** A year's report is loaded once and then served from the cache until runs change. */
export const weeklyReportQueryOptions = (year: number) =>
  queryOptions({
    queryKey: queryKeys.weeklyReportFor(year),
    queryFn: ({ signal }) => getWeeklyReport(year, signal),
    staleTime: Infinity,
    placeholderData: keepPreviousData,
  });

export const useWeeklyReport = (year: number) => useQuery(weeklyReportQueryOptions(year));
