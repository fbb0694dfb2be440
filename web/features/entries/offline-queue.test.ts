import { describe, expect, it } from 'vitest';
import type { EntryBody } from '../../../core/schemas.js';
import { createOfflineQueue, memoryStore, resultOf, type QueuedRun, type SendResult } from './offline-queue';

const run = (date: string, distance = 5): EntryBody => ({ date, distance, time: '00:30:00' });
const RUNNER = 7;
const OTHER = 8;

/** A server of the test: answers each key's request with `answers[key]` (201 by default) and counts the calls. */
function fakeServer(answers: Record<string, SendResult> = {}) {
  const calls: QueuedRun[] = [];
  const byDate: Record<string, SendResult> = {};
  return {
    calls,
    byDate,
    send: (queued: QueuedRun) => {
      calls.push(queued);
      return Promise.resolve(answers[queued.key] ?? byDate[queued.body.date] ?? { outcome: 'sent' as const });
    },
  };
}

describe('the offline queue', () => {
  it('keeps runs with a key of their own, oldest first, for their runner only', async () => {
    const queue = createOfflineQueue(memoryStore(), () => new Date('2026-11-28T10:00:00Z'));
    const a = await queue.add(RUNNER, run('2026-11-27'));
    const b = await queue.add(RUNNER, run('2026-11-28'));
    await queue.add(OTHER, run('2026-11-26'));
    expect(a.key).not.toBe(b.key);
    expect(a.key.length).toBeGreaterThanOrEqual(1);
    expect(a.key.length).toBeLessThanOrEqual(100);
    const mine = await queue.list(RUNNER);
    expect(mine.map((r) => r.body.date)).toEqual(['2026-11-27', '2026-11-28']);
    expect(mine.every((r) => r.state === 'waiting')).toBe(true);
  });

  it('sends the waiting runs in order with their keys and forgets each one stored', async () => {
    const queue = createOfflineQueue(memoryStore());
    const first = await queue.add(RUNNER, run('2026-11-01'));
    const second = await queue.add(RUNNER, run('2026-11-02'));
    const other = await queue.add(OTHER, run('2026-11-03'));
    const server = fakeServer();
    expect(await queue.flush(RUNNER, server.send)).toBe(2);
    expect(server.calls.map((c) => c.key)).toEqual([first.key, second.key]);
    expect(await queue.list(RUNNER)).toEqual([]);
    expect((await queue.list(OTHER)).map((r) => r.key)).toEqual([other.key]);
  });

  it('keeps every run waiting when there is no answer or a 5xx, and sends them later with the same keys', async () => {
    const queue = createOfflineQueue(memoryStore());
    const first = await queue.add(RUNNER, run('2026-11-01'));
    await queue.add(RUNNER, run('2026-11-02'));
    const down = fakeServer({ [first.key]: resultOf(503, 'Service unavailable.', {}) });
    expect(await queue.flush(RUNNER, down.send)).toBe(0);
    // The first one got no answer: the ones after it are not tried either.
    expect(down.calls).toHaveLength(1);
    expect((await queue.list(RUNNER)).map((r) => r.state)).toEqual(['waiting', 'waiting']);

    const back = fakeServer();
    expect(await queue.flush(RUNNER, back.send)).toBe(2);
    expect(back.calls[0]!.key).toBe(first.key);
  });

  it('marks a refused run failed with the server’s message, sends the others, and sends it again once edited', async () => {
    const queue = createOfflineQueue(memoryStore());
    const bad = await queue.add(RUNNER, run('2099-01-01'));
    await queue.add(RUNNER, run('2026-11-02'));
    const server = fakeServer();
    server.byDate['2099-01-01'] = resultOf(422, 'The date must not be in the future.', {
      date: ['The date must not be in the future.'],
    });
    expect(await queue.flush(RUNNER, server.send)).toBe(1);
    const [failed] = await queue.list(RUNNER);
    expect(failed).toMatchObject({ key: bad.key, state: 'failed', message: 'The date must not be in the future.' });
    expect(failed!.errors).toEqual({ date: ['The date must not be in the future.'] });

    // A failed run is not sent again by itself.
    expect(await queue.flush(RUNNER, server.send)).toBe(0);
    expect(server.calls).toHaveLength(2);

    await queue.retry(bad.key, run('2026-11-01'));
    const [edited] = await queue.list(RUNNER);
    expect(edited).toMatchObject({ key: bad.key, state: 'waiting', body: run('2026-11-01') });
    expect(edited!.message).toBeUndefined();
    expect(await queue.flush(RUNNER, server.send)).toBe(1);
    expect(await queue.list(RUNNER)).toEqual([]);
  });

  it('discards a run, and clears every run of everyone', async () => {
    const queue = createOfflineQueue(memoryStore());
    const a = await queue.add(RUNNER, run('2026-11-01'));
    await queue.add(RUNNER, run('2026-11-02'));
    await queue.add(OTHER, run('2026-11-03'));
    await queue.discard(a.key);
    expect(await queue.list(RUNNER)).toHaveLength(1);
    await queue.clear();
    expect(await queue.list(RUNNER)).toEqual([]);
    expect(await queue.list(OTHER)).toEqual([]);
  });

  it('runs one flush at a time: a second call while one is under way sends nothing twice', async () => {
    const queue = createOfflineQueue(memoryStore());
    await queue.add(RUNNER, run('2026-11-01'));
    await queue.add(RUNNER, run('2026-11-02'));
    const server = fakeServer();
    const [one, two] = await Promise.all([queue.flush(RUNNER, server.send), queue.flush(RUNNER, server.send)]);
    expect(one).toBe(2);
    expect(two).toBe(2);
    expect(server.calls).toHaveLength(2);
  });

  it('tells its listeners of every change', async () => {
    const queue = createOfflineQueue(memoryStore());
    let changes = 0;
    const stop = queue.subscribe(() => (changes += 1));
    const a = await queue.add(RUNNER, run('2026-11-01'));
    await queue.discard(a.key);
    stop();
    await queue.add(RUNNER, run('2026-11-02'));
    expect(changes).toBe(2);
  });
});

describe('what an answer means for a queued run', () => {
  it('2xx stored; no answer, 5xx, 401 and 429 later; any other 4xx refused', () => {
    expect(resultOf(201, '', {}).outcome).toBe('sent');
    for (const status of [0, 500, 502, 503, 401, 429]) expect(resultOf(status, 'x', {}).outcome).toBe('later');
    for (const status of [400, 403, 404, 409, 422]) expect(resultOf(status, 'x', {}).outcome).toBe('refused');
  });
});
