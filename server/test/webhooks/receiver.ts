/**
 * A real webhook receiver on 127.0.0.1 for the tests: it checks each delivery's signature with
 * its own HMAC, keeps what arrived, and answers what the test tells it (a status, a redirect, or
 * nothing at all).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Arrival {
  event: string;
  deliveryId: string;
  signature: string;
  contentType: string;
  body: string;
  json: { event: string; at: string; user_id: number; entry: Record<string, unknown> };
  /** Whether the signature is the HMAC-SHA256 of the exact body with the secret. */
  signed: boolean;
  at: number;
}

/** What to answer the n-th arrival (from 0): a status, a redirect, or 'hang' (never answer). */
export type Answer = number | { redirect: string } | 'hang';

export interface Receiver {
  url: string;
  port: number;
  arrivals: Arrival[];
  secret: string;
  /** Resolves once `n` deliveries have arrived (throws after `timeoutMs`). */
  waitFor(n: number, timeoutMs?: number): Promise<Arrival[]>;
  close(): Promise<void>;
}

export async function startReceiver(answer: (n: number, arrival: Arrival) => Answer = () => 200): Promise<Receiver> {
  const arrivals: Arrival[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const held = new Set<http.ServerResponse>();
  const receiver: Receiver = {
    url: '',
    port: 0,
    arrivals,
    secret: '',
    async waitFor(n, timeoutMs = 10_000) {
      if (arrivals.length < n) {
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(
            () => reject(new Error(`${arrivals.length} of ${n} deliveries arrived within ${timeoutMs} ms`)),
            timeoutMs,
          );
          waiters.push({
            n,
            resolve: () => {
              clearTimeout(timer);
              resolve();
            },
          });
        });
      }
      return arrivals.slice(0, n);
    },
    async close() {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body = raw.toString('utf8');
      const signature = String(request.headers['x-runningtimes-signature'] ?? '');
      const expected = `sha256=${createHmac('sha256', receiver.secret).update(raw).digest('hex')}`;
      const arrival: Arrival = {
        event: String(request.headers['x-runningtimes-event'] ?? ''),
        deliveryId: String(request.headers['x-runningtimes-delivery'] ?? ''),
        signature,
        contentType: String(request.headers['content-type'] ?? ''),
        body,
        json: JSON.parse(body) as Arrival['json'],
        signed: signature.length === expected.length && timingSafeEqual(Buffer.from(signature), Buffer.from(expected)),
        at: Date.now(),
      };
      const n = arrivals.length;
      arrivals.push(arrival);
      for (const waiter of waiters.filter((w) => arrivals.length >= w.n)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      const what = answer(n, arrival);
      if (what === 'hang') {
        held.add(response);
        return;
      }
      if (typeof what === 'object') {
        response.writeHead(302, { location: what.redirect }).end();
        return;
      }
      response.writeHead(what, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}/hook?from=running-times`;
  return receiver;
}
