import type { QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { endSession } from '../features/auth/api/get-me';
import { createQueryClient } from './query-client';

/** Goes to /login; set by `SessionExpiryRedirect` while it is mounted inside the router. */
let goToLogin = (): void => {};

/** The app's query client: a request refused because the session expired ends the session and goes to /login. */
export function createAppQueryClient(): QueryClient {
  const queryClient: QueryClient = createQueryClient({
    onSessionExpired: () => {
      endSession(queryClient);
      goToLogin();
    },
  });
  return queryClient;
}

/** Lets the query client, which lives outside the router, navigate. */
export function SessionExpiryRedirect() {
  const navigate = useNavigate();
  useEffect(() => {
    goToLogin = () => void navigate('/login');
    return () => {
      goToLogin = () => {};
    };
  }, [navigate]);
  return null;
}
