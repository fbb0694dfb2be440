import { useMutation, useQueryClient } from '@tanstack/react-query';
import { TokenCreatedSchema, type TokenCreateBody } from '../../../../core/tokens.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** POST /tokens: the new token, with its plain text shown this once. */
export const createToken = (input: TokenCreateBody) => api.post('/tokens', TokenCreatedSchema, { ...input });

export function useCreateToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.tokens }),
  });
}
