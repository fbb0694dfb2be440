/**
 * The matching thread ends once idle (its heap, hundreds of MB after grouping 1,500 runs, goes with
 * it) and a later job starts a new one.
 */
import { describe, expect, it } from 'vitest';
import { MatchingThread } from '../../features/routes/matching-thread.js';

const until = async (done: () => boolean) => {
  const end = Date.now() + 20_000;
  while (!done() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20));
};

describe('the matching thread', () => {
  it('ends when idle, and a later job starts it again', async () => {
    const thread = new MatchingThread(200);
    try {
      expect(thread.running).toBe(false);
      expect(await thread.efforts([], [])).toEqual([]);
      expect(thread.running).toBe(true);
      await until(() => !thread.running);
      expect(thread.running).toBe(false);
      expect(await thread.efforts([], [])).toEqual([]);
      expect(thread.running).toBe(true);
    } finally {
      await thread.close();
    }
  });

  it('is kept while jobs keep coming', async () => {
    const thread = new MatchingThread(1000);
    try {
      for (let i = 0; i < 5; i++) {
        await thread.efforts([], []);
        expect(thread.running).toBe(true);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(thread.running).toBe(true);
    } finally {
      await thread.close();
    }
  });
});
