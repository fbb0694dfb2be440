import { queryOptions, useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { ShoesEnvelopeSchema } from '../../../../core/shoes.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export async function getShoes(signal?: AbortSignal) {
  const result = await api.get('/shoes', ShoesEnvelopeSchema, { signal });
  return result.shoes;
}

export const shoesQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.shoes, queryFn: ({ signal }) => getShoes(signal) });

/** The runner's shoes, oldest first. */
export const useShoes = () => useQuery(shoesQueryOptions());

/** The name of one of the runner's shoes by its id (undefined until the shoes are there, or for another's). */
export function useShoeNames(): (shoeId: number) => string | undefined {
  const shoes = useShoes().data;
  return useCallback((shoeId) => shoes?.find((shoe) => shoe.id === shoeId)?.name, [shoes]);
}
