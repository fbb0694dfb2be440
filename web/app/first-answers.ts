import { currentLanguage } from '../i18n/runtime';
import { buildUrl, earlyAnswers, requestHeaders, type QueryParams } from '../lib/api-client';
import type { FirstScreenName } from './first-screens';
import { SCREEN_TEXTS_ID } from './screen-texts';

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

/**
 * The screen's texts in the reader's language but English, named by its page: asked for with its
 * answers, not once its code has run (the German dashboard's 11 catalogs came a round trip after
 * its code, and its largest paint about 250 ms after the English one's on Lighthouse's phone).
 */
function askScreenTexts(): void {
  const language = currentLanguage();
  const named = document.getElementById(SCREEN_TEXTS_ID)?.textContent;
  if (language === 'en' || !named) return;
  for (const href of (JSON.parse(named) as Partial<Record<string, string[]>>)[language] ?? []) {
    document.head.append(
      Object.assign(document.createElement('link'), { rel: 'modulepreload', href, crossOrigin: '' }),
    );
  }
}

/** Asks for what the first screen shows besides its code: its texts and its answers. */
export function askFirstAnswers(name: FirstScreenName, path: string): void {
  askScreenTexts();
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
