import type { QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseMessage } from '../../../lib/response-guards';
import { endSession } from './get-me';

/** Revokes the token on the server and forgets the session here, even if the server cannot be reached. */
export async function logout(queryClient: QueryClient): Promise<void> {
  try {
    await api.post('/auth/logout', parseMessage);
  } catch {
    // The token is dropped locally either way; an unreachable server must not keep anyone logged in.
  }
  endSession(queryClient);
}
