import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { SpinnerOverlay } from '../components/spinner-overlay';
import { Toaster } from '../components/toast/toaster';

/** App-wide providers and overlays: the query client, the loading overlay and the toasts. */
export function AppProvider({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <SpinnerOverlay />
      <Toaster />
    </QueryClientProvider>
  );
}
