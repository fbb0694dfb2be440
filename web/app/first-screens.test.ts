import { notifyManager, QueryClient, QueryObserver, type QueryObserverResult } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getDashboard } from '../features/dashboard/api/get-dashboard';
import { queryKeys } from '../lib/query-keys';
import { sessionKeys } from '../lib/session-keys';
import { TOKEN_KEY } from '../lib/token-storage';
import { mockFetch } from '../test/fetch-mock';
import { makeUser } from '../test/fixtures';
import { chooseLanguage } from '../i18n/runtime';
import { askFirstAnswers } from './first-answers';
import { firstScreenAt } from './first-screens';
import { SCREEN_TEXTS_ID } from './screen-texts';
import { createQueryClient } from './query-client';
import { startSignedInScreen } from './routes';

const DASHBOARD_ANSWERS = [
  '/api/v1/dashboard/data',
  '/api/v1/insights/load',
  '/api/v1/shoes',
  '/api/v1/entry',
  '/api/v1/goals',
  '/api/v1/insights/streaks',
];

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the first screens', () => {
  it('are found by their addresses only', () => {
    expect(firstScreenAt('/dashboard')).toBe('dashboard');
    expect(firstScreenAt('/entry/42')).toBe('run-page');
    expect(firstScreenAt('/entry/new')).toBeNull();
    expect(firstScreenAt('/entry/42/edit')).toBeNull();
    expect(firstScreenAt('/dashboard/x')).toBeNull();
    expect(firstScreenAt('/entries')).toBeNull();
  });

  it("ask for the dashboard's answers with the session check, each once, taken by the screen's requests", async () => {
    window.localStorage.setItem(TOKEN_KEY, 'token');
    const calls = mockFetch({ 'GET /api/v1/user/me': { body: makeUser({ id: 5 }) } });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    startSignedInScreen('/dashboard', queryClient);
    // Every answer has been asked for, and each of the screen's queries has had its answer (404s here).
    await vi.waitFor(
      () =>
        expect(
          queryClient
            .getQueryCache()
            .findAll()
            .filter((query) => query.state.status === 'error'),
        ).toHaveLength(6),
      { timeout: 10_000 },
    );
    expect(calls.map((call) => call.path).sort()).toEqual(['/api/v1/user/me', ...DASHBOARD_ANSWERS].sort());
    expect(calls.find((call) => call.path === '/api/v1/entry')!.url).toBe('/api/v1/entry?page=1&per_page=5');
    expect(calls.every((call) => call.headers.authorization === 'Bearer token')).toBe(true);
  }, 15_000);

  it("ask for the run's answers with the session check, each once, taken by the screen's requests", async () => {
    window.localStorage.setItem(TOKEN_KEY, 'token');
    const calls = mockFetch({
      'GET /api/v1/user/me': { body: makeUser({ id: 5 }) },
      'GET /api/v1/shoes': { body: { shoes: [] } },
    });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    startSignedInScreen('/entry/42', queryClient);
    await vi.waitFor(() => expect(queryClient.getQueryData(queryKeys.shoes)).toEqual([]), { timeout: 10_000 });
    await vi.waitFor(() => expect(queryClient.getQueryState(queryKeys.entry(42))?.status).toBe('error'), {
      timeout: 10_000,
    });
    expect(calls.map((call) => call.path).sort()).toEqual(
      ['/api/v1/user/me', '/api/v1/entry/42', '/api/v1/entry/42/track', '/api/v1/shoes'].sort(),
    );
  }, 15_000);

  it("ask for the screen's texts in the reader's language with its answers, as its page names them", async () => {
    mockFetch({});
    const named = Object.assign(document.createElement('script'), {
      type: 'application/json',
      id: SCREEN_TEXTS_ID,
      textContent: JSON.stringify({ de: ['/assets/de-a.js', '/assets/de-b.js'], fr: ['/assets/fr-a.js'] }),
    });
    document.head.append(named);
    const asked = () =>
      [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((link) => [
        new URL(link.href).pathname,
        link.getAttribute('crossorigin'),
      ]);
    try {
      askFirstAnswers('dashboard', '/dashboard');
      expect(asked()).toEqual([]);
      await chooseLanguage('de');
      askFirstAnswers('dashboard', '/dashboard');
      expect(asked()).toEqual([
        ['/assets/de-a.js', ''],
        ['/assets/de-b.js', ''],
      ]);
    } finally {
      await chooseLanguage('en');
      window.localStorage.clear();
      named.remove();
      for (const link of document.head.querySelectorAll('link[rel="modulepreload"]')) link.remove();
    }
  });

  it('leave the answers asked for a session that has ended to no one: a new session asks again', async () => {
    window.localStorage.setItem(TOKEN_KEY, 'revoked');
    const calls = mockFetch({ 'GET /api/v1/user/me': { status: 401, body: { message: 'Unauthenticated.' } } });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    startSignedInScreen('/dashboard', queryClient);
    await vi.waitFor(() => expect(queryClient.getQueryState(sessionKeys.me)?.status).toBe('success'), {
      timeout: 10_000,
    });
    expect(queryClient.getQueryData(sessionKeys.me)).toBeNull();
    // The screen's code has loaded by now (it started with the session check): its queries asked nothing.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(queryClient.getQueryCache().findAll()).toHaveLength(1);
    // Another runner signs in: their dashboard's answers are theirs, not those asked with the old token.
    window.localStorage.setItem(TOKEN_KEY, 'fresh');
    const before = calls.length;
    await getDashboard().catch(() => undefined);
    expect(calls.slice(before).map((call) => [call.path, call.headers.authorization])).toEqual([
      ['/api/v1/dashboard/data', 'Bearer fresh'],
    ]);
  }, 15_000);
});

describe("the query client's notifications", () => {
  it('reach every subscriber, in one timer for the batches of one task', async () => {
    const queryClient = createQueryClient();
    const timers = vi.spyOn(globalThis, 'setTimeout');
    const seen: string[] = [];
    const unsubscribes = ['a', 'b', 'c'].map((key) =>
      // As React's hooks subscribe: through the notify manager's batches.
      new QueryObserver(queryClient, { queryKey: [key], enabled: false }).subscribe(
        notifyManager.batchCalls((result: QueryObserverResult) => {
          if (result.data !== undefined) seen.push(key);
        }),
      ),
    );
    const before = timers.mock.calls.length;
    for (const key of ['a', 'b', 'c']) queryClient.setQueryData([key], 1);
    expect(seen).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seen).toEqual(['a', 'b', 'c']);
    // The three batches' notifications went out in one timer, and the test's own wait took one more.
    expect(timers.mock.calls.length - before).toBeLessThanOrEqual(2);
    for (const unsubscribe of unsubscribes) unsubscribe();
    timers.mockRestore();
  });
});
