import { vi } from 'vitest';

export interface MockRequest {
  method: string;
  url: string;
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown> | null;
}

export interface MockReply {
  status?: number;
  body?: unknown;
}

type Handler = (request: MockRequest) => MockReply | Promise<MockReply>;

/**
 * Replaces `fetch` with handlers keyed by "METHOD /path" (path without the query
 * string, e.g. "GET /api/v1/user/me"). Unknown calls answer 404. Returns the
 * list of requests made, for assertions on payloads and headers.
 */
export function mockFetch(handlers: Record<string, Handler | MockReply>): MockRequest[] {
  const calls: MockRequest[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      const path = new URL(url, 'http://localhost').pathname;
      const method = (init?.method ?? 'GET').toUpperCase();
      const headers = Object.fromEntries(new Headers(init?.headers).entries());
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : null;
      const request = { method, url, path, headers, body };
      calls.push(request);
      const handler = handlers[`${method} ${path}`];
      const reply =
        typeof handler === 'function'
          ? await handler(request)
          : (handler ?? { status: 404, body: { message: 'Not found.' } });
      return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
        status: reply.status ?? 200,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return calls;
}
