import { notifyManager, QueryClient, QueryObserver, type QueryObserverResult } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionKeys } from '../lib/session-keys';
import { TOKEN_KEY } from '../lib/token-storage';
import { mockFetch } from '../test/fetch-mock';
import { makeUser } from '../test/fixtures';
import { firstScreenAt } from './first-screens';
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

  it("ask for the dashboard's answers before it is drawn, once the session is good", async () => {
    window.localStorage.setItem(TOKEN_KEY, 'token');
    const calls = mockFetch({ 'GET /api/v1/user/me': { body: makeUser({ id: 5 }) } });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    startSignedInScreen('/dashboard', queryClient);
    await vi.waitFor(() => expect(calls.map((call) => call.path)).toEqual(expect.arrayContaining(DASHBOARD_ANSWERS)), {
      timeout: 10_000,
    });
    // The session check came first: nothing of the runner's was asked for before it.
    expect(calls[0]!.path).toBe('/api/v1/user/me');
  }, 15_000);

  it("ask for the run's answers before its page is drawn", async () => {
    window.localStorage.setItem(TOKEN_KEY, 'token');
    const calls = mockFetch({ 'GET /api/v1/user/me': { body: makeUser({ id: 5 }) } });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    startSignedInScreen('/entry/42', queryClient);
    await vi.waitFor(
      () =>
        expect(calls.map((call) => call.path)).toEqual(
          expect.arrayContaining(['/api/v1/entry/42', '/api/v1/entry/42/track', '/api/v1/shoes']),
        ),
      { timeout: 10_000 },
    );
    expect(calls[0]!.path).toBe('/api/v1/user/me');
  }, 15_000);

  it('ask for nothing of a runner whose session is gone', async () => {
    window.localStorage.setItem(TOKEN_KEY, 'revoked');
    const calls = mockFetch({ 'GET /api/v1/user/me': { status: 401, body: { message: 'Unauthenticated.' } } });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    startSignedInScreen('/dashboard', queryClient);
    await vi.waitFor(() => expect(queryClient.getQueryState(sessionKeys.me)?.status).toBe('success'), {
      timeout: 10_000,
    });
    expect(queryClient.getQueryData(sessionKeys.me)).toBeNull();
    // The screen's code has loaded by now (it started with the session check): still nothing asked.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(calls.map((call) => call.path)).toEqual(['/api/v1/user/me']);
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
