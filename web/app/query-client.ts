import { MutationCache, notifyManager, QueryCache, QueryClient } from '@tanstack/react-query';
import { notify as defaultNotify, type ToastType } from '../components/toast/toast-store';
import { t } from '../i18n/runtime';
import { ApiError, failedUrlOf } from '../lib/api-client';

/**
 * The query client tells its subscribers of each change in a task of its own, one `setTimeout` per
 * batch: a screen's first answers made about a hundred timers, and each costs the main thread while a
 * trace is recorded (Lighthouse's 4x slower phone counts it in every long task). The batches of one
 * task are handed over together, in one timer: the same order, one task later as before.
 */
let waiting: (() => void)[] = [];
function notifyWaiting(): void {
  const batches = waiting;
  waiting = [];
  for (const batch of batches) batch();
}
notifyManager.setScheduler((batch) => {
  if (waiting.push(batch) === 1) setTimeout(notifyWaiting, 0);
});

type Notify = (text: string, type: ToastType) => unknown;

interface Options {
  notify?: Notify;
  /** A request was refused with 401 although a session existed: it has expired or was revoked. */
  onSessionExpired?: () => void;
}

/**
 * The single place that reacts to failed requests (SPEC §8): a danger toast with
 * the server's message (or 'Request error status: N'), except for the session
 * check, whose URL contains '/me' and which fails silently.
 */
export function createRequestErrorHandler({ notify = defaultNotify, onSessionExpired }: Options = {}) {
  return (error: unknown): void => {
    if (error instanceof DOMException && error.name === 'AbortError') return;
    const url = failedUrlOf(error);
    if (url?.includes('/me')) return;
    notify(error instanceof Error ? error.message : t('shell.requestError'), 'danger');
    if (error instanceof ApiError && error.status === 401 && !error.url.includes('/auth/')) onSessionExpired?.();
  };
}

export function createQueryClient(options: Options = {}): QueryClient {
  const onError = createRequestErrorHandler(options);
  return new QueryClient({
    queryCache: new QueryCache({ onError }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}
