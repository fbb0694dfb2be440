import { queryOptions, useQuery } from '@tanstack/react-query';
import { TokensEnvelopeSchema } from '../../../../core/tokens.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** GET /tokens: the runner's personal API tokens, newest first. */
export async function getTokens(signal?: AbortSignal) {
  const result = await api.get('/tokens', TokensEnvelopeSchema, { signal });
  return result.tokens;
}

export const tokensQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.tokens, queryFn: ({ signal }) => getTokens(signal) });

export function useTokens() {
  return useQuery(tokensQueryOptions());
}
