import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { MapConfigSchema, type MapConfig } from '../../../../core/tracks/schemas.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * Only the `map` of the app config: the first screen checks the rest with its own guard and does
 * not need this. A server that predates maps sends no `map`, which draws routes without tiles, as
 * `MAP_TILE_URL=off` does.
 */
const MapOfAppConfigSchema = z.object({ map: MapConfigSchema.nullable().optional() });

export async function getMapConfig(signal?: AbortSignal): Promise<MapConfig | null> {
  return (await api.get('/app-config', MapOfAppConfigSchema, { signal })).map ?? null;
}

export const mapConfigQueryOptions = () =>
  queryOptions({
    queryKey: [...queryKeys.appConfig, 'map'],
    queryFn: ({ signal }) => getMapConfig(signal),
    staleTime: Infinity,
  });

/** The tiles under every map (null: a plain background). */
export const useMapConfig = () => useQuery(mapConfigQueryOptions());
