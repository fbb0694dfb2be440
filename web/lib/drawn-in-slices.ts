import { useDeferredValue } from 'react';

/**
 * Whether a screen's answers are all in, as the screen should draw it. Drawing a page full of
 * panels (the dashboard's, a long run's blocks) takes a slow phone's main thread for a few hundred
 * milliseconds in one task; through a deferred value React draws them in slices that let the
 * browser answer between them (Lighthouse's total blocking time on a phone, `npm run bench:web`).
 * Until then the screen shows what it shows while loading.
 */
export function useDrawnInSlices(answered: boolean): boolean {
  return useDeferredValue(answered);
}
