import type { QueryClient } from '@tanstack/react-query';
import { MessageSchema } from '../../../../core/schemas.js';
import { api } from '../../../lib/api-client';
import { endSession } from './get-me';

/** Revokes the token on the server and forgets the session here, even if the server cannot be reached. */
export async function logout(queryClient: QueryClient): Promise<void> {
  try {
    await api.post('/auth/logout', MessageSchema);
  } catch {
    // The token is dropped locally either way; an unreachable server must not keep anyone logged in.
  }
  endSession(queryClient);
}
