import { useMutation, useQueryClient } from '@tanstack/react-query';
import { EntryEnvelopeSchema, type Entry, type EntryBody } from '../../../../core/schemas.js';
import { api, ApiError } from '../../../lib/api-client';
import { invalidateRunData, queryKeys } from '../../../lib/query-keys';
import { newIdempotencyKey, offlineQueue, resultOf, type QueuedRun, type SendResult } from '../offline-queue';

/** Records a run; `key` is its `Idempotency-Key` (CONTRACT.md §20: the web app sends one with every run). */
export async function createEntry(input: EntryBody, key: string = newIdempotencyKey()) {
  const result = await api.post('/entry', EntryEnvelopeSchema, { ...input }, { 'Idempotency-Key': key });
  return result.entry;
}

/** Sends a run of the offline queue with its key; what the answer means for it. */
export async function sendQueuedRun(run: QueuedRun): Promise<SendResult> {
  try {
    await createEntry(run.body, run.key);
    return { outcome: 'sent' };
  } catch (error) {
    if (error instanceof ApiError) return resultOf(error.status, error.message, error.errors);
    // An answer of success in a shape this app does not know: the run was stored all the same.
    return { outcome: 'sent' };
  }
}

/** The signed-in user's id, from the session's answer (null for a visitor). */
export function signedInUserId(queryClient: ReturnType<typeof useQueryClient>): number | null {
  return queryClient.getQueryData<{ id: number } | null>(queryKeys.me)?.id ?? null;
}

/** Sends the signed-in runner's waiting runs; the lists are refreshed when any was stored. */
export async function sendWaitingRuns(queryClient: ReturnType<typeof useQueryClient>): Promise<number> {
  const userId = signedInUserId(queryClient);
  if (userId === null) return 0;
  const sent = await offlineQueue.flush(userId, sendQueuedRun);
  if (sent > 0) await invalidateRunData(queryClient);
  return sent;
}

/** What adding a run came to: stored now, or kept in the browser until the network is back. */
export type AddedRun = { entry: Entry; queued?: undefined } | { entry?: undefined; queued: QueuedRun };

/**
 * Adds a run. Without a network (the browser says it is offline, or no answer came, or a 5xx) the
 * run goes to the offline queue with the key it was sent with, and is sent later: it may have been
 * stored already, and the key makes the second sending answer that run again.
 */
export async function addRun(queryClient: ReturnType<typeof useQueryClient>, input: EntryBody): Promise<AddedRun> {
  const userId = signedInUserId(queryClient);
  const key = newIdempotencyKey();
  const queue = async () => ({ queued: await offlineQueue.add(userId ?? 0, input, key) });
  if (userId !== null && typeof navigator !== 'undefined' && navigator.onLine === false) return queue();
  try {
    return { entry: await createEntry(input, key) };
  } catch (error) {
    if (userId !== null && error instanceof ApiError && (error.status === 0 || error.status >= 500)) return queue();
    throw error;
  }
}

export function useCreateEntry({
  onSuccess,
  onQueued,
}: { onSuccess?: (entry: Entry) => void; onQueued?: (run: QueuedRun) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: EntryBody) => addRun(queryClient, input),
    // Offline the run is queued at once, not paused until the network is back.
    networkMode: 'always',
    onSuccess: async (added) => {
      if (added.queued) {
        onQueued?.(added.queued);
        return;
      }
      onSuccess?.(added.entry);
      await invalidateRunData(queryClient);
    },
  });
}
