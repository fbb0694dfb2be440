/**
 * The API in the request's language (CONTRACT.md §19): `message`, the texts of `errors` and import
 * rows' reasons follow `Accept-Language`; keys, statuses, codes and every other value are the same
 * in every language; without a header, or in none of the six, the answer is English byte for byte.
 */
import type { FastifyInstance } from 'fastify';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportEnvelopeSchema } from '../../../core/imports.js';
import { call, createEntry, createTestApp, nextIp, registerUser, type TestApp } from '../helpers.js';
import { multipartBody, type Part } from '../imports/fixtures.js';

const GERMAN = { 'accept-language': 'de-DE,de;q=0.9' };

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

type Body = { message: string; errors?: Record<string, string[]> };

function preview(app: FastifyInstance, token: string, files: Part[], headers: Record<string, string> = {}) {
  const { payload, contentType } = multipartBody([{ name: 'dry_run', content: '1', field: true }, ...files]);
  return app.inject({
    method: 'POST',
    url: '/api/v1/import',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType, accept: 'application/json', ...headers },
    payload,
  });
}

/** The same keys, the same status: only the texts may differ. */
function expectSameShape(english: LightMyRequestResponse, other: LightMyRequestResponse): void {
  expect(other.statusCode).toBe(english.statusCode);
  const a = english.json<Body>();
  const b = other.json<Body>();
  expect(Object.keys(b)).toEqual(Object.keys(a));
  expect(Object.keys(b.errors ?? {})).toEqual(Object.keys(a.errors ?? {}));
  for (const [field, texts] of Object.entries(a.errors ?? {})) expect(b.errors?.[field]).toHaveLength(texts.length);
}

const badRegistration = { name: '', email: 'not-an-email', password: 'short', password_confirmation: 'short' };

describe('in German (Accept-Language: de-DE,de;q=0.9)', () => {
  it('a 422 of the registration: German message and errors, the same fields and status', async () => {
    const english = await call(t.app, 'POST', '/api/v1/auth/register', { body: badRegistration, ip: nextIp() });
    const german = await call(t.app, 'POST', '/api/v1/auth/register', {
      body: badRegistration,
      ip: nextIp(),
      headers: GERMAN,
    });
    expect(english.statusCode).toBe(422);
    expectSameShape(english, german);
    expect(german.json()).toEqual({
      message: 'Das Feld „Name“ ist erforderlich.',
      errors: {
        name: ['Das Feld „Name“ ist erforderlich.'],
        email: ['Das Feld „E-Mail“ muss eine gültige E-Mail-Adresse sein.'],
        password: ['Das Feld „Passwort“ muss mindestens 8 Zeichen lang sein.'],
      },
    });
  });

  it('a 422 of a run (POST): German, with the contract’s numbers as they were', async () => {
    const { token } = await registerUser(t.app);
    const body = { date: '2026-03-01', distance: 0, time: '00:30:00' };
    const english = await call(t.app, 'POST', '/api/v1/entry', { token, body });
    const german = await call(t.app, 'POST', '/api/v1/entry', { token, body, headers: GERMAN });
    expectSameShape(english, german);
    expect(english.json<Body>().errors?.distance).toEqual(['The distance must be greater than 0.']);
    expect(german.json<Body>().errors?.distance).toEqual(['Das Feld „Distanz“ muss größer als 0 sein.']);
  });

  it('a 401, a 403 and a 404', async () => {
    const unauthenticated = await call(t.app, 'GET', '/api/v1/user/me', { headers: GERMAN });
    expect(unauthenticated.statusCode).toBe(401);
    expect(unauthenticated.json()).toEqual({ message: 'Nicht angemeldet.' });

    const { token } = await registerUser(t.app);
    const forbidden = await call(t.app, 'GET', '/api/v1/user', { token, headers: GERMAN });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toEqual({ message: 'Für diese Aktion fehlt dir die Berechtigung.' });

    for (const url of ['/api/v1/entry/999999', '/api/v1/no-such-thing', '/api/v1/entry/abc']) {
      const res = await call(t.app, 'GET', url, { token, headers: GERMAN });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ message: 'Nicht gefunden.' });
    }
  });

  it('the message of an answer that is no error', async () => {
    const { token } = await registerUser(t.app);
    const entry = await createEntry(t.app, token, { date: '2026-03-01', distance: 5, time: '00:30:00' });
    const res = await call(t.app, 'DELETE', `/api/v1/entry/${entry.id}`, { token, headers: GERMAN });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Der Lauf wurde gelöscht.' });
  });

  it('the reasons of an import preview’s rows, with the same reason_code as in English', async () => {
    const { token } = await registerUser(t.app);
    const files: Part[] = [
      {
        name: 'runs.csv',
        content:
          'date,distance_km,time,title,notes,kind,effort,shoe\n2026-03-01,5,00:30:00,,,,,\n2026-03-02,0,00:30:00,,,,,\n',
      },
      { name: 'notes.txt', content: 'not a run' },
    ];
    const english = await preview(t.app, token, files);
    const german = await preview(t.app, token, files, GERMAN);
    expect(english.statusCode, english.body).toBe(200);
    expect(german.statusCode).toBe(200);
    const en = ImportEnvelopeSchema.parse(english.json()).import;
    const de = ImportEnvelopeSchema.parse(german.json()).import;
    expect(en.rows.map((row) => row.reason_code)).toEqual([undefined, 'field_not_positive', 'file_type_unsupported']);
    expect(de.rows.map((row) => row.reason_code)).toEqual(en.rows.map((row) => row.reason_code));
    expect(de.rows.map((row) => Object.keys(row))).toEqual(en.rows.map((row) => Object.keys(row)));
    expect(de.rows.map((row) => [row.source, row.status])).toEqual(en.rows.map((row) => [row.source, row.status]));
    expect(en.rows[1]?.reason).toBe('The distance must be greater than 0.');
    expect(de.rows[1]?.reason).toBe('Das Feld „Distanz“ muss größer als 0 sein.');
    expect(de.rows[2]?.reason).toBe(
      'Dieser Dateityp wird nicht unterstützt: Sende .fit-, .tcx-, .gpx-, .csv-, .json- oder .zip-Dateien (jeweils auch gzip-komprimiert).',
    );
    expect({ ...de, rows: [] }).toEqual({ ...en, rows: [] });
  });
});

describe('the header picks the language', () => {
  it('by q-value, then the header’s order, leaving out q=0', async () => {
    for (const [header, message] of [
      ['fr;q=0.5, de;q=0.8', 'Nicht angemeldet.'],
      ['de;q=0, fr', 'Non authentifié.'],
      ['ja, es-MX;q=0.9, it;q=0.9', 'No has iniciado sesión.'],
      ['nl-BE', 'Niet aangemeld.'],
      ['it', 'Accesso non effettuato.'],
    ] as const) {
      const res = await call(t.app, 'GET', '/api/v1/user/me', { headers: { 'accept-language': header } });
      expect(res.json(), header).toEqual({ message });
    }
  });
});

describe('English, byte for byte as before', () => {
  const requests: [string, (headers: Record<string, string>, token: string) => Promise<LightMyRequestResponse>][] = [
    [
      'a 422 of the registration',
      (headers) => call(t.app, 'POST', '/api/v1/auth/register', { body: badRegistration, ip: nextIp(), headers }),
    ],
    ['a 401', (headers) => call(t.app, 'GET', '/api/v1/user/me', { headers })],
    ['a 404', (headers, token) => call(t.app, 'GET', '/api/v1/entry/999999', { token, headers })],
    [
      'a 422 of a run',
      (headers, token) =>
        call(t.app, 'POST', '/api/v1/entry', { token, headers, body: { date: 'soon', distance: 'far' } }),
    ],
    [
      'an import preview',
      (headers, token) =>
        preview(
          t.app,
          token,
          [
            { name: 'notes.txt', content: 'not a run' },
            { name: 'a.csv', content: '' },
          ],
          headers,
        ),
    ],
  ];

  it.each(requests)('%s: none, ja and en-US answer the same text', async (_, request) => {
    const { token } = await registerUser(t.app);
    const none = await request({}, token);
    for (const header of ['ja', 'en-US,en;q=0.9', 'zh-CN, pt;q=0.5', '*']) {
      const other = await request({ 'accept-language': header }, token);
      expect(other.statusCode, header).toBe(none.statusCode);
      expect(other.body, header).toBe(none.body);
    }
  });

  it('is the contract’s text', async () => {
    const res = await call(t.app, 'GET', '/api/v1/user/me', { headers: { 'accept-language': 'ja' } });
    expect(res.body).toBe('{"message":"Unauthenticated."}');
  });
});
