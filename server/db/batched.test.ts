/** Lookups that share a statement (batched.ts): when they go, what answers them, and failures. */
import { describe, expect, it } from 'vitest';
import { batchedLookup } from './batched.js';

/** A fetch whose statements the test answers (or fails) one by one, in the order they were sent. */
function scriptedFetch() {
  const sent: { keys: string[]; answer: (values: Record<string, number>) => void; fail: (e: Error) => void }[] = [];
  const fetch = (keys: string[]) =>
    new Promise<Map<string, number>>((resolve, reject) => {
      sent.push({ keys, answer: (values) => resolve(new Map(Object.entries(values))), fail: reject });
    });
  return { sent, fetch };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('batchedLookup', () => {
  it('sends a lookup at once when nothing is in flight', async () => {
    const { sent, fetch } = scriptedFetch();
    const lookup = batchedLookup(fetch);
    const a = lookup('a');
    expect(sent.map((s) => s.keys)).toEqual([['a']]);
    expect(lookup.statements()).toBe(1);
    sent[0]!.answer({ a: 1 });
    expect(await a).toBe(1);
    // Nothing in flight again: the next goes at once too.
    void lookup('b');
    expect(sent.map((s) => s.keys)).toEqual([['a'], ['b']]);
  });

  it('gathers the lookups asked while one is in flight into the next statement, each key once', async () => {
    const { sent, fetch } = scriptedFetch();
    const lookup = batchedLookup(fetch);
    const first = lookup('a');
    const waiting = [lookup('b'), lookup('c'), lookup('b'), lookup('missing')];
    expect(sent).toHaveLength(1);
    sent[0]!.answer({ a: 1 });
    expect(await first).toBe(1);
    expect(sent.map((s) => s.keys)).toEqual([['a'], ['b', 'c', 'missing']]);
    sent[1]!.answer({ b: 2, c: 3 });
    expect(await Promise.all(waiting)).toEqual([2, 3, 2, undefined]);
    expect(lookup.statements()).toBe(2);
  });

  it('never answers a key from a statement sent before it was asked', async () => {
    const { sent, fetch } = scriptedFetch();
    const lookup = batchedLookup(fetch);
    const before = lookup('token');
    // Asked while the statement for the same key is in flight (say, after a logout committed):
    const after = lookup('token');
    sent[0]!.answer({ token: 1 });
    expect(await before).toBe(1);
    expect(sent).toHaveLength(2);
    sent[1]!.answer({}); // the second statement no longer finds it
    expect(await after).toBeUndefined();
  });

  it('fails only the keys of a failed statement, and goes on with the next', async () => {
    const { sent, fetch } = scriptedFetch();
    const lookup = batchedLookup(fetch);
    const failed = lookup('a');
    const next = lookup('b');
    sent[0]!.fail(new Error('connection lost'));
    await expect(failed).rejects.toThrow('connection lost');
    expect(sent.map((s) => s.keys)).toEqual([['a'], ['b']]);
    sent[1]!.answer({ b: 2 });
    expect(await next).toBe(2);
  });

  it('fails the keys of a fetch that throws before it sends anything', async () => {
    let calls = 0;
    const lookup = batchedLookup<string, number>((keys) => {
      calls += 1;
      if (calls === 1) throw new Error('not connected');
      return Promise.resolve(new Map(keys.map((k) => [k, k.length])));
    });
    await expect(lookup('a')).rejects.toThrow('not connected');
    expect(await lookup('abc')).toBe(3);
  });

  it('sends at most maxKeys keys in one statement', async () => {
    const { sent, fetch } = scriptedFetch();
    const lookup = batchedLookup(fetch, 2);
    const all = [lookup('a'), lookup('b'), lookup('c'), lookup('d'), lookup('e')];
    sent[0]!.answer({ a: 1 });
    await settled();
    sent[1]!.answer({ b: 2, c: 3 });
    await settled();
    sent[2]!.answer({ d: 4, e: 5 });
    expect(await Promise.all(all)).toEqual([1, 2, 3, 4, 5]);
    expect(sent.map((s) => s.keys)).toEqual([['a'], ['b', 'c'], ['d', 'e']]);
  });
});
