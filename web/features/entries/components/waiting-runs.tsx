import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import offline from 'virtual:i18n/offline';
import type { EntryBody } from '../../../../core/schemas.js';
import { useConfirm } from '../../../components/confirm-dialog';
import { notify } from '../../../components/toast/toast-store';
import { useT } from '../../../i18n/runtime';
import { useDisplay } from '../../../lib/display';
import { sendWaitingRuns, signedInUserId } from '../api/create-entry';
import { offlineQueue, type QueuedRun } from '../offline-queue';
import { EntryForm, entryToFormValues } from './entry-form';

/** A counter moved by every change of the queue: what the components below read it again on. */
let version = 0;
offlineQueue.subscribe(() => (version += 1));
const subscribe = (listener: () => void) => offlineQueue.subscribe(listener);
const currentVersion = () => version;

/** The signed-in runner's queued runs, read again after every change of the queue. */
export function useQueuedRuns(): QueuedRun[] {
  const queryClient = useQueryClient();
  const userId = signedInUserId(queryClient);
  const changes = useSyncExternalStore(subscribe, currentVersion);
  const [runs, setRuns] = useState<QueuedRun[]>([]);
  useEffect(() => {
    let current = true;
    if (userId === null) setRuns([]);
    else void offlineQueue.list(userId).then((list) => current && setRuns(list));
    return () => {
      current = false;
    };
  }, [userId, changes]);
  return runs;
}

/**
 * How often waiting runs are tried again while some wait: a browser may say it is online when it has
 * no network (Chromium, started again without one), and then never says that the network is back.
 */
export const RETRY_WAITING_MS = 15_000;

/**
 * Sends the waiting runs now (the app started), whenever the browser is back online and, while
 * `waiting`, every RETRY_WAITING_MS; tells the runner how many were saved.
 */
export function useSendWaitingRuns(onSent: (count: number) => void, waiting = false): void {
  const queryClient = useQueryClient();
  const sentRef = useRef(onSent);
  sentRef.current = onSent;
  const send = useCallback(() => {
    void sendWaitingRuns(queryClient).then((sent) => {
      if (sent > 0) sentRef.current(sent);
    });
  }, [queryClient]);
  useEffect(() => {
    send();
    window.addEventListener('online', send);
    return () => window.removeEventListener('online', send);
  }, [send]);
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(send, RETRY_WAITING_MS);
    return () => clearInterval(timer);
  }, [send, waiting]);
}

/**
 * The runs added without a network that are not stored yet (CONTRACT.md §20): a banner listing
 * them, waiting or refused; a refused one can be edited (and sent again) or discarded. Nothing
 * when there are none. It also sends them: at once and when the network is back.
 */
export function WaitingRuns() {
  const t = useT(offline);
  const runs = useQueuedRuns();
  useSendWaitingRuns(
    (count) => notify(t('offline.sent', { count }), 'success'),
    runs.some((run) => run.state === 'waiting'),
  );
  const display = useDisplay();
  const { confirm, dialog } = useConfirm();
  const [editing, setEditing] = useState<string | null>(null);
  const queryClient = useQueryClient();
  if (runs.length === 0) return dialog;
  const waiting = runs.filter((run) => run.state === 'waiting').length;
  const failed = runs.length - waiting;
  const resend = async (run: QueuedRun, body: EntryBody) => {
    setEditing(null);
    await offlineQueue.retry(run.key, body);
    void sendWaitingRuns(queryClient);
  };
  return (
    <section
      className={`alert ${failed > 0 ? 'alert-danger' : 'alert-warning'}`}
      aria-label={t('offline.banner.label')}
    >
      {waiting > 0 && <p className="mb-2">{t('offline.banner.waiting', { count: waiting })}</p>}
      {failed > 0 && <p className="mb-2">{t('offline.banner.failed', { count: failed })}</p>}
      <ul className="list-unstyled mb-0">
        {runs.map((run) => (
          <li key={run.key} className="py-1" data-queued-run={run.state}>
            <span className={`badge me-2 ${run.state === 'failed' ? 'text-bg-danger' : 'text-bg-secondary'}`}>
              {t(run.state === 'failed' ? 'offline.state.failed' : 'offline.state.waiting')}
            </span>
            {t('offline.run', {
              date: display.formatDate(run.body.date),
              distance: display.runDistance(run.body.distance),
              unit: display.labels.distance,
              time: run.body.time,
            })}
            {run.state === 'failed' && (
              <>
                {run.message && <span className="d-block small">{run.message}</span>}
                <span className="d-block mt-1">
                  <button
                    type="button"
                    className="btn btn-sm btn-outline-secondary me-2"
                    aria-expanded={editing === run.key}
                    onClick={() => setEditing(editing === run.key ? null : run.key)}
                  >
                    {t(editing === run.key ? 'offline.cancel' : 'offline.edit')}
                  </button>
                  <button
                    type="button"
                    className="btn btn-sm btn-outline-danger"
                    onClick={async () => {
                      if (await confirm(t('offline.discardConfirm'), { confirmLabel: t('offline.discard') })) {
                        await offlineQueue.discard(run.key);
                      }
                    }}
                  >
                    {t('offline.discard')}
                  </button>
                </span>
                {editing === run.key && (
                  <div className="mt-2 p-2 bg-body rounded">
                    <EntryForm
                      initial={entryToFormValues(run.body)}
                      submitLabel={t('offline.resend')}
                      serverErrors={run.errors ?? {}}
                      onSubmit={(body) => void resend(run, body)}
                    />
                  </div>
                )}
              </>
            )}
          </li>
        ))}
      </ul>
      {dialog}
    </section>
  );
}
