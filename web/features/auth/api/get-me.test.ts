import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOKEN_KEY } from '../../../lib/token-storage';
import { makeUser } from '../../../test/fixtures';
import { getMe } from './get-me';

const user = makeUser({ name: 'Kept Runner' });

/** An answer whose status and headers arrive, and whose body breaks off half-way. */
function cutOff(): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"id":'));
      controller.error(new TypeError('network error'));
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
}

function answer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the session check', () => {
  it('keeps the session when the answer breaks off half-way (the page left, the network dropped)', async () => {
    window.localStorage.setItem(TOKEN_KEY, 'stored-token');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer(200, user)),
    );
    expect((await getMe())?.name).toBe('Kept Runner');

    vi.stubGlobal(
      'fetch',
      vi.fn(async () => cutOff()),
    );
    expect((await getMe())?.name).toBe('Kept Runner');
    expect(window.localStorage.getItem(TOKEN_KEY)).toBe('stored-token');
  });

  it('ends the session the server refuses', async () => {
    window.localStorage.setItem(TOKEN_KEY, 'stored-token');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer(200, user)),
    );
    await getMe();

    vi.stubGlobal(
      'fetch',
      vi.fn(async () => answer(401, { message: 'Unauthenticated.' })),
    );
    expect(await getMe()).toBeNull();
    expect(window.localStorage.getItem(TOKEN_KEY)).toBeNull();
  });
});
