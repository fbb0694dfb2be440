/**
 * The calendar feed (CONTRACT.md §20): its key made, replaced, removed and shown to a sign-in
 * session alone; the feed read by an independent strict reader (ics-parser.ts): RFC 5545's
 * structure, CRLF, folding at 75 octets, TEXT escaping, the owner's units and language, the
 * ETag, and nobody else's runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CalendarFeedEnvelopeSchema } from '../../../core/calendar-feed.js';
import { TokenCreatedSchema } from '../../../core/tokens.js';
import { DEMO_PASSWORD } from '../../features/demo/demo.service.js';
import { newFeedKey } from '../../features/calendar/calendar.service.js';
import { loggedUrl } from '../../http/log-url.js';
import {
  call,
  createEntry,
  createTestApp,
  expectError,
  login,
  registerUser,
  type Account,
  type TestApp,
} from '../helpers.js';
import { importResult } from '../imports/fixtures.js';
import ICAL from 'ical.js';
import { one, parseCalendar, physicalLines, text, type Component } from './ics-parser.js';

const PUBLIC_URL = 'https://runs.example.org';
const FEED = /^https:\/\/runs\.example\.org\/ical\/([a-z0-9]{24})\.ics$/;
const SIGN_IN = 'Personal API tokens cannot manage the calendar feed: sign in to do so.';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ publicUrl: PUBLIC_URL });
});
afterAll(async () => {
  await t.close();
});

async function feedUrl(token: string, method: 'GET' | 'POST' | 'DELETE' = 'GET'): Promise<string | null> {
  const res = await call(t.app, method, '/api/v1/calendar-feed', { token });
  expect(res.statusCode, res.body).toBe(200);
  return CalendarFeedEnvelopeSchema.parse(res.json()).calendar_feed.url;
}

const pathOf = (url: string) => url.slice(PUBLIC_URL.length);

function getFeed(url: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url: pathOf(url), headers });
}

async function calendarOf(url: string): Promise<Component> {
  const res = await getFeed(url);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
  return parseCalendar(res.rawPayload);
}

const events = (calendar: Component) => calendar.components.filter((c) => c.name === 'VEVENT');
const eventOf = (calendar: Component, runId: number) => {
  const found = events(calendar).find((e) => one(e, 'UID').raw === `run-${runId}@runs.example.org`);
  if (!found) throw new Error(`no event of run ${runId}`);
  return found;
};

async function setPreferences(runner: Account, extra: object): Promise<void> {
  const res = await call(t.app, 'PUT', `/api/v1/user/${runner.user.id}`, {
    token: runner.token,
    body: { name: runner.user.name, email: runner.user.email, ...extra },
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe('the feed key', () => {
  it('is made by POST, shown by GET, replaced by a later POST (the old one stops at once), removed by DELETE', async () => {
    const runner = await registerUser(t.app);
    expect(await feedUrl(runner.token)).toBeNull();

    const first = await feedUrl(runner.token, 'POST');
    expect(first).toMatch(FEED);
    expect(await feedUrl(runner.token)).toBe(first);
    expect((await getFeed(first!)).statusCode).toBe(200);

    const second = await feedUrl(runner.token, 'POST');
    expect(second).toMatch(FEED);
    expect(second).not.toBe(first);
    const old = await getFeed(first!);
    expect(old.statusCode).toBe(404);
    expect(old.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect((await getFeed(second!)).statusCode).toBe(200);

    expect(await feedUrl(runner.token, 'DELETE')).toBeNull();
    expect(await feedUrl(runner.token)).toBeNull();
    expect((await getFeed(second!)).statusCode).toBe(404);
  });

  it('is removed by POST with _method DELETE, as the web app sends it', async () => {
    const runner = await registerUser(t.app);
    const url = await feedUrl(runner.token, 'POST');
    const res = await call(t.app, 'POST', '/api/v1/calendar-feed', {
      token: runner.token,
      body: { _method: 'DELETE' },
    });
    expect(res.json()).toEqual({ calendar_feed: { url: null } });
    expect((await getFeed(url!)).statusCode).toBe(404);
  });

  it('is 24 characters of [a-z0-9], every character of them in use', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const key = newFeedKey();
      expect(key).toMatch(/^[a-z0-9]{24}$/);
      for (const char of key) seen.add(char);
    }
    expect(seen.size).toBe(36);
  });

  it('is refused (403) to personal API tokens, read or write, for every method', async () => {
    const runner = await registerUser(t.app);
    await feedUrl(runner.token, 'POST');
    for (const scope of ['read', 'write']) {
      const created = await call(t.app, 'POST', '/api/v1/tokens', {
        token: runner.token,
        body: { name: `feed ${scope}`, scope },
      });
      const personal = TokenCreatedSchema.parse(created.json()).plain_text_token;
      for (const method of ['GET', 'POST', 'DELETE'] as const) {
        const res = await call(t.app, method, '/api/v1/calendar-feed', { token: personal });
        // A read token is refused any write before the route is reached, with the scope's message.
        if (scope === 'read' && method !== 'GET') expectError(res, 403);
        else expectError(res, 403, SIGN_IN);
      }
    }
    expect(await feedUrl(runner.token)).toMatch(FEED);
  });

  it('answers 401 without a token', async () => {
    expectError(await call(t.app, 'GET', '/api/v1/calendar-feed'), 401);
  });

  it('is refused (403) to demo accounts', async () => {
    const demo = await createTestApp({ demoMode: true, publicUrl: PUBLIC_URL });
    try {
      const runner = await login(demo.app, 'demo.user@example.com', DEMO_PASSWORD);
      for (const method of ['GET', 'POST', 'DELETE'] as const) {
        expectError(
          await call(demo.app, method, '/api/v1/calendar-feed', { token: runner.token }),
          403,
          'Demo accounts have no calendar feed.',
        );
      }
    } finally {
      await demo.close();
    }
  });

  it('says why in the request’s language', async () => {
    const runner = await registerUser(t.app);
    const created = await call(t.app, 'POST', '/api/v1/tokens', {
      token: runner.token,
      body: { name: 'w', scope: 'write' },
    });
    const personal = TokenCreatedSchema.parse(created.json()).plain_text_token;
    const res = await call(t.app, 'GET', '/api/v1/calendar-feed', {
      token: personal,
      headers: { 'accept-language': 'de' },
    });
    expectError(res, 403, 'Persönliche API-Tokens können den Kalender-Feed nicht verwalten: Bitte melde dich dazu an.');
  });
});

describe('GET /ical/<key>.ics', () => {
  it('answers an unknown key, or a name that cannot be one, with a 404 in plain text', async () => {
    for (const path of [
      `/ical/${newFeedKey()}.ics`,
      '/ical/nothing.ics',
      '/ical/ABCDEFGHIJKLMNOPQRSTUVWX.ics',
      '/ical/x',
    ]) {
      const res = await t.app.inject({ method: 'GET', url: path });
      expect(res.statusCode, path).toBe(404);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.body).toBe('Not found.\n');
    }
  });

  it('is an RFC 5545 calendar with one all-day event per run, in the owner’s units', async () => {
    const runner = await registerUser(t.app);
    const other = await registerUser(t.app);
    const named = await createEntry(t.app, runner.token, {
      date: '2026-03-01',
      distance: 10,
      time: '00:50:00',
      title: 'Sunday long run',
    });
    const untitled = await createEntry(t.app, runner.token, { date: '2026-03-03', distance: 5.5, time: '01:02:03' });
    const foreign = await createEntry(t.app, other.token, { date: '2026-03-02', distance: 7, time: '00:35:00' });
    await feedUrl(other.token, 'POST');
    const url = (await feedUrl(runner.token, 'POST'))!;

    const calendar = await calendarOf(url);
    expect(calendar.name).toBe('VCALENDAR');
    expect(one(calendar, 'VERSION').raw).toBe('2.0');
    expect(one(calendar, 'PRODID').raw).toMatch(/\S/);
    expect(events(calendar)).toHaveLength(2);
    expect(events(calendar).map((e) => one(e, 'UID').raw)).not.toContain(`run-${foreign.id}@runs.example.org`);

    const first = eventOf(calendar, named.id);
    expect(one(first, 'DTSTART')).toEqual({ name: 'DTSTART', params: { VALUE: 'DATE' }, raw: '20260301' });
    const stamp = new Date(named.updated_at)
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
    expect(one(first, 'DTSTAMP').raw).toBe(stamp);
    expect(one(first, 'DTSTAMP').raw).toMatch(/^\d{8}T\d{6}Z$/);
    expect(text(first, 'SUMMARY')).toBe('Sunday long run · 10.00 km · 0:50:00');
    expect(text(first, 'DESCRIPTION')).toBe(`Pace: 5.00 min/km\nRun page: ${PUBLIC_URL}/entry/${named.id}`);

    expect(text(eventOf(calendar, untitled.id), 'SUMMARY')).toBe('Run · 5.50 km · 1:02:03');

    await setPreferences(runner, { units: 'mi', pace_format: 'clock' });
    const inMiles = eventOf(await calendarOf(url), named.id);
    expect(text(inMiles, 'SUMMARY')).toBe('Sunday long run · 6.21 mi · 0:50:00');
    expect(text(inMiles, 'DESCRIPTION')).toBe(`Pace: 8:03 /mi\nRun page: ${PUBLIC_URL}/entry/${named.id}`);
  });

  it('escapes TEXT, folds long lines at 75 octets without splitting a character, and ends every line with CRLF', async () => {
    const runner = await registerUser(t.app);
    const tricky = 'Hills; 5×1 km, then \\ home';
    const long = 'Läufchen über die Brücke 🏃‍♀️ — Äpfel, Öl; Übermut ✓ '.repeat(2).slice(0, 100);
    const escaped = await createEntry(t.app, runner.token, {
      date: '2026-03-04',
      distance: 8,
      time: '00:40:00',
      title: tricky,
    });
    const folded = await createEntry(t.app, runner.token, {
      date: '2026-03-05',
      distance: 8,
      time: '00:40:00',
      title: long,
    });
    const url = (await feedUrl(runner.token, 'POST'))!;
    const res = await getFeed(url);
    const body = res.rawPayload;
    expect(body.includes(Buffer.from('\r\n'))).toBe(true);
    const lines = physicalLines(body); // CRLF only, ≤ 75 octets, whole UTF-8 characters
    const continuations = lines.filter((line) => line.startsWith(' '));
    expect(continuations.length).toBeGreaterThan(0);
    expect(lines.some((line) => Buffer.byteLength(line) === 75 || Buffer.byteLength(line) >= 72)).toBe(true);

    const calendar = parseCalendar(body);
    expect(text(eventOf(calendar, escaped.id), 'SUMMARY')).toBe(`${tricky} · 8.00 km · 0:40:00`);
    expect(one(eventOf(calendar, escaped.id), 'SUMMARY').raw).toBe(
      'Hills\\; 5×1 km\\, then \\\\ home · 8.00 km · 0:40:00',
    );
    expect(text(eventOf(calendar, folded.id), 'SUMMARY')).toBe(`${long} · 8.00 km · 0:40:00`);
    expect(text(eventOf(calendar, folded.id), 'DESCRIPTION')).toContain('\n');
    // And as a maintained reader of calendars reads it (ical.js, Mozilla's).
    const read = new ICAL.Component(ICAL.parse(body.toString('utf8')));
    const summaries = read.getAllSubcomponents('vevent').map((event) => event.getFirstPropertyValue('summary'));
    expect(summaries).toEqual(expect.arrayContaining([`${tricky} · 8.00 km · 0:40:00`, `${long} · 8.00 km · 0:40:00`]));
  });

  it('writes the summary and description in the owner’s language, with its decimal comma', async () => {
    const runner = await registerUser(t.app);
    const run = await createEntry(t.app, runner.token, { date: '2026-03-06', distance: 12.345, time: '01:05:00' });
    await setPreferences(runner, { locale: 'de' });
    const url = (await feedUrl(runner.token, 'POST'))!;
    const event = eventOf(await calendarOf(url), run.id);
    expect(text(event, 'SUMMARY')).toBe('Lauf · 12,35 km · 1:05:00');
    expect(text(event, 'DESCRIPTION')).toBe(`Pace: 5,27 min/km\nSeite des Laufs: ${PUBLIC_URL}/entry/${run.id}`);

    await setPreferences(runner, { locale: 'auto' });
    expect(text(eventOf(await calendarOf(url), run.id), 'SUMMARY')).toBe('Run · 12.35 km · 1:05:00');
  });

  it('sends a strong ETag; If-None-Match with it is a 304 until a run or a preference changes', async () => {
    const runner = await registerUser(t.app);
    const run = await createEntry(t.app, runner.token, { date: '2026-03-07', distance: 5, time: '00:25:00' });
    const url = (await feedUrl(runner.token, 'POST'))!;
    const first = await getFeed(url);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect((await getFeed(url)).headers.etag).toBe(etag);

    const again = await getFeed(url, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect((await getFeed(url, { 'if-none-match': '"other"' })).statusCode).toBe(200);

    const res = await call(t.app, 'PUT', `/api/v1/entry/${run.id}`, {
      token: runner.token,
      body: { date: '2026-03-07', distance: 5, time: '00:24:00', title: 'Faster' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const changed = await getFeed(url, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(text(eventOf(parseCalendar(changed.rawPayload), run.id), 'SUMMARY')).toBe('Faster · 5.00 km · 0:24:00');

    const etag2 = changed.headers.etag as string;
    await setPreferences(runner, { units: 'mi' });
    expect((await getFeed(url, { 'if-none-match': etag2 })).statusCode).toBe(200);
  });

  it('writes every run of a runner with more than a page of them, oldest first', async () => {
    const runner = await registerUser(t.app);
    const rows = ['date,distance_km,time,title,notes,kind,effort,shoe'];
    for (let i = 0; i < 620; i++) {
      const day = new Date(Date.UTC(2024, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
      rows.push(`${day},5.0,00:25:00,,,easy,,`);
    }
    const result = await importResult(t.app, runner.token, [{ name: 'many.csv', content: rows.join('\n') }]);
    expect(result.created).toBe(620);
    const url = (await feedUrl(runner.token, 'POST'))!;
    const starts = events(await calendarOf(url)).map((e) => one(e, 'DTSTART').raw);
    expect(starts).toHaveLength(620);
    expect(starts[0]).toBe('20240101');
    expect([...starts].sort()).toEqual(starts);
    expect(new Set(starts).size).toBe(620);
  });
});

describe('the request log', () => {
  it('hides the key of /ical/ paths', () => {
    const key = newFeedKey();
    expect(loggedUrl(`/ical/${key}.ics`)).toBe('/ical/[hidden].ics');
    expect(loggedUrl(`/ical/${key}.ics?x=1`)).toBe('/ical/[hidden].ics');
    expect(loggedUrl(`/ical/${key}`)).toBe('/ical/[hidden]');
    expect(loggedUrl('/api/v1/entry?page=2')).toBe('/api/v1/entry?page=2');
  });
});
