import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { CalendarEnvelopeSchema, YearEnvelopeSchema } from '../../../../core/insights.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** A calendar year in review: totals against the year before, months, records, longest and fastest runs. */
export async function getYear(year: number, signal?: AbortSignal) {
  return (await api.get('/insights/year', YearEnvelopeSchema, { query: { year }, signal })).year;
}

/** The days of a calendar year with runs: `[date, km, runs]`. */
export async function getCalendar(year: number, signal?: AbortSignal) {
  return (await api.get('/insights/calendar', CalendarEnvelopeSchema, { query: { year }, signal })).calendar;
}

export const yearQueryOptions = (year: number) =>
  queryOptions({
    queryKey: queryKeys.insight('year', year),
    queryFn: ({ signal }) => getYear(year, signal),
    staleTime: Infinity,
    placeholderData: keepPreviousData,
  });

export const calendarQueryOptions = (year: number) =>
  queryOptions({
    queryKey: queryKeys.insight('calendar', year),
    queryFn: ({ signal }) => getCalendar(year, signal),
    staleTime: Infinity,
    placeholderData: keepPreviousData,
  });

export const useYear = (year: number) => useQuery(yearQueryOptions(year));
export const useCalendar = (year: number) => useQuery(calendarQueryOptions(year));
