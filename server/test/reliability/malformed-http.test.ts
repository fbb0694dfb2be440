/**
 * Malformed HTTP on a real socket: every broken request line, header or body gets a 4xx with a
 * JSON `{message}` body, never a 5xx, and the server keeps serving.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers.js';

describe('malformed HTTP on a real socket', () => {
  let served: TestApp;
  let address: { port: number };
  beforeAll(async () => {
    served = await createTestApp();
    await served.app.listen({ port: 0, host: '127.0.0.1' });
    address = served.app.server.address() as { port: number };
  });
  afterAll(async () => {
    await served.close();
  });

  /** Sends raw bytes and returns the whole answer (the server closes the connection). */
  function raw(bytes: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(address.port, '127.0.0.1');
      let answer = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk: string) => {
        answer += chunk;
      });
      socket.on('end', () => resolve(answer));
      socket.on('close', () => resolve(answer));
      socket.on('error', reject);
      socket.setTimeout(5000, () => {
        socket.destroy();
        resolve(answer);
      });
      socket.end(bytes, 'latin1');
    });
  }

  const cases: [string, string][] = [
    ['a header with a control character', 'GET /api/v1/user/me HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n'],
    ['a header line without a colon', 'GET /api/health HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n'],
    ['a header of 64 KB', `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(65_536)}\r\n\r\n`],
    [
      'broken chunked encoding',
      'POST /api/v1/entry HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
    ],
    [
      'both Content-Length and Transfer-Encoding',
      'POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    ],
    ['an invalid method', 'BREW /api/health HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['not HTTP at all', '\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\u00fc\u0003\u0003\r\n\r\n'],
  ];

  for (const [label, bytes] of cases) {
    it(`${label}: a 4xx JSON {message}, and the server keeps serving`, async () => {
      const answer = await raw(bytes);
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]);
      expect(status, answer.slice(0, 300)).toBeGreaterThanOrEqual(400);
      expect(status, answer.slice(0, 300)).toBeLessThan(500);
      expect(head).toMatch(/content-type: application\/json/i);
      const parsed = JSON.parse(body) as Record<string, unknown>;
      expect(Object.keys(parsed)).toEqual(['message']);
      expect(typeof parsed.message).toBe('string');

      const health = await fetch(`http://127.0.0.1:${address.port}/api/health`);
      expect(health.status).toBe(200);
    });
  }
});
