import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { RunTrackSchema, TrackPlacesSchema, type RunTrack, type TrackPlaces } from '../../core/tracks/schemas.js';
import { api, ApiError } from './api-client';
import { queryKeys } from './query-keys';

/**
 * A run's track (CONTRACT.md §14), or null for a run without one (shared by the run page's track
 * sections and the records, which say where a best effort was run): the API's 404 is an answer here,
 * not a failure, so it reaches neither the error state nor the error toast.
 */
export type RunTrackWithPlaces = RunTrack & { places: TrackPlaces };

/** The track, with the run's route and segment efforts (CONTRACT.md §22) read from the same answer. */
const TrackOnlySchema = z.object({ track: RunTrackSchema });
function parseTrack(json: unknown): RunTrackWithPlaces {
  const { track } = TrackOnlySchema.parse(json);
  return { ...track, places: TrackPlacesSchema.parse(json) };
}

export async function getTrack(entryId: number, signal?: AbortSignal): Promise<RunTrackWithPlaces | null> {
  try {
    return await api.get(`/entry/${entryId}/track`, parseTrack, { signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

// Under the run's own key: whatever refreshes the run refreshes its track (and its zones) too.
export const trackQueryOptions = (entryId: number) =>
  queryOptions({
    queryKey: [...queryKeys.entry(entryId), 'track'],
    queryFn: ({ signal }) => getTrack(entryId, signal),
  });

export const useTrack = (entryId: number) => useQuery(trackQueryOptions(entryId));
