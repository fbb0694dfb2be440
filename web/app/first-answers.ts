import { buildUrl, earlyAnswers, requestHeaders, type QueryParams } from '../lib/api-client';
import type { FirstScreenName } from './first-screens';

/**
 * The answers each first screen shows first (what its `prefetch` asks for), by the addresses its
 * requests go to. Asked for here as soon as the entry chunk runs, with the session check (this
 * chunk is named in the screen's page, decision 055): on a phone's network they then come with the
 * screen's code, not after it and its zod schemas (45-80 ms of a phone's main thread). The screen's
 * requests take them (`earlyAnswers`, lib/api-client.ts); first-screens.test.ts holds these lists
 * to what the screens ask for. An answer no request takes (a session that has ended) is left unread.
 */
const FIRST_ANSWERS: Record<FirstScreenName, (path: string) => [string, QueryParams?][]> = {
  dashboard: () => [
    ['/dashboard/data'],
    ['/insights/load'],
    ['/shoes'],
    ['/entry', { page: 1, per_page: 5 }],
    ['/goals'],
    ['/insights/streaks'],
  ],
  'run-page': (path) => {
    const id = path.split('/').at(-1);
    return [[`/entry/${id}`], [`/entry/${id}/track`], ['/shoes']];
  },
};

export function askFirstAnswers(name: FirstScreenName, path: string): void {
  const headers = requestHeaders();
  for (const [address, query] of FIRST_ANSWERS[name](path)) {
    const url = buildUrl(address, query);
    const response = fetch(url, { headers });
    // No answer (no network: the app started offline) is no answer to take: the screen's request,
    // made once the network is back, asks again.
    response.catch(() => {
      if (earlyAnswers.get(url)?.response === response) earlyAnswers.delete(url);
    });
    earlyAnswers.set(url, { headers: JSON.stringify(headers), response });
  }
}
