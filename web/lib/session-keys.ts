/**
 * The query keys of the session check and the app config: the only ones the first load needs, kept
 * apart from `query-keys.ts` (which spreads them into every key of the app) so that the rest of the
 * keys load with the screens (decision 012's budget of `/login`).
 */
export const sessionKeys = {
  me: ['auth', 'me'] as const,
  appConfig: ['app-config'] as const,
};
