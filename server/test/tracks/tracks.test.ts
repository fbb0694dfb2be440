/**
 * Tracks through the API (CONTRACT.md §13, §14, §16), on SQLite and on PostgreSQL
 * (TEST_DATABASE_URL): a FIT file imported keeps its track and its original, the run page
 * answers every field of §14, the GPX and the original come back, a duplicate of a stored run
 * without a track gives it one (track_added, would_add_track on a dry run), ownership is the
 * run's, guests get 401, and deleting a run or its runner takes the track with it.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EntryEnvelopeSchema } from '../../../core/schemas.js';
import { RunTrackEnvelopeSchema } from '../../../core/tracks/schemas.js';
import { call, createEntry, createTestApp, loginAdmin, registerUser, type Account, type TestApp } from '../helpers.js';
import { importResult } from '../imports/fixtures.js';
import { WATCH_START, watchFit, watchGpx } from '../imports/track-fixtures.js';

let t: TestApp;
let admin: Account;
beforeAll(async () => {
  t = await createTestApp({}, { now: '2026-03-18T12:00:00.000Z' });
  admin = await loginAdmin(t.app);
});
afterAll(async () => {
  await t.close();
});

const trackOf = async (token: string, id: number) => call(t.app, 'GET', `/api/v1/entry/${id}/track`, { token });
const tableCount = async (table: 'tracks' | 'track_files', entryId: number) =>
  Number(
    (
      await t.app.appContext.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('entry_id', '=', entryId)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('a FIT file imported with its track', () => {
  let runner: Account;
  let id: number;
  beforeAll(async () => {
    runner = await registerUser(t.app, { timezone: 'UTC' });
    const result = await importResult(t.app, runner.token, [{ name: 'watch.fit.gz', content: gzipSync(watchFit()) }]);
    expect(result.created).toBe(1);
    const row = result.rows[0]!;
    expect(row.status).toBe('created');
    id = row.entry!.id!;
    expect(row.entry).toMatchObject({ has_track: true, elevation_gain: 108, elevation_loss: 3 });
  });

  it('shows the track summary on the run, in every list of runs', async () => {
    const entry = EntryEnvelopeSchema.parse(
      (await call(t.app, 'GET', `/api/v1/entry/${id}`, { token: runner.token })).json(),
    ).entry;
    // 540 s of timer time at 3 m/s: 1,620 m; heart rate 120 + timer mod 40; cadence 2 x (85 + 0..0.75).
    expect(entry).toMatchObject({
      distance: 1.62,
      time: '00:09:00',
      has_track: true,
      elevation_gain: 108,
      elevation_loss: 3,
      max_heart_rate: 159,
    });
    expect(entry.avg_heart_rate).toBeGreaterThan(135);
    expect(entry.avg_heart_rate).toBeLessThan(145);
    expect(entry.avg_cadence).toBe(171);
    const own = (await call(t.app, 'GET', '/api/v1/entry', { token: runner.token })).json();
    expect(own.entries.data[0]).toMatchObject({ id, has_track: true });
    const all = (await call(t.app, 'GET', '/api/v1/entry/all', { token: admin.token })).json();
    expect(all.entries.data.find((e: { id: number }) => e.id === id)).toMatchObject({
      has_track: true,
      elevation_gain: 108,
    });
  });

  it('answers the run page with every field of §14', async () => {
    const res = await trackOf(runner.token, id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const { track } = RunTrackEnvelopeSchema.parse(res.json());
    expect(Object.keys(res.json().track).sort()).toEqual(
      [
        'bounds',
        'best_efforts',
        'elevation',
        'entry_id',
        'has',
        'heart_rate',
        'laps',
        'pauses',
        'route',
        'samples',
        'series',
        'splits',
      ].sort(),
    );
    expect(track.entry_id).toBe(id);
    expect(track.samples).toBe(542);
    expect(track.has).toEqual({ distance: true, position: true, elevation: true, heart_rate: true, cadence: true });
    expect(track.pauses).toEqual([[300, 360]]);
    expect(track.laps).toEqual([
      { index: 1, start: 0, distance: 600, time: 200 },
      { index: 2, start: 200, distance: 1020, time: 340 },
    ]);
    expect(track.elevation).toEqual({ gain: 108, loss: 3, source: 'device' });
    expect(track.splits.km.map((s) => s.distance)).toEqual([1000, 620]);
    expect(track.splits.mi.map((s) => s.distance)).toEqual([1609.3, 10.7]);
    expect(track.best_efforts.map((e) => e.key)).toEqual(['1k', '1mi']);
    // Every kilometre spans the 60 s pause (900 m before it, 720 m after): 333.3 s running + 60 s, elapsed.
    // The first sample 1 km past the start is at 1,002 m (3 m a second): the stretch starts at 2 m.
    expect(track.best_efforts[0]).toMatchObject({ key: '1k', time: '00:06:33', start: 2 });
    // No maximum heart rate in the profile: the highest sample of the runner's tracks.
    expect(track.heart_rate).toMatchObject({ max: 159, max_used: 159, max_source: 'observed' });
    expect(track.route).toMatch(/^[\x3f-\x7e]+$/);
    expect(track.bounds![0][0]).toBeCloseTo(48.8, 6);
  });

  it('draws the zones from the maximum heart rate of the profile once it is set', async () => {
    const set = await call(t.app, 'PUT', `/api/v1/user/${runner.user.id}`, {
      token: runner.token,
      body: { name: runner.user.name, email: runner.user.email, max_heart_rate: 190 },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().user.max_heart_rate).toBe(190);
    const { track } = RunTrackEnvelopeSchema.parse((await trackOf(runner.token, id)).json());
    expect(track.heart_rate).toMatchObject({ max_used: 190, max_source: 'profile' });
    expect(track.heart_rate!.zones.map((z) => z.from_bpm)).toEqual([95, 114, 133, 152, 171]);
  });

  it('gives the original file back as uploaded, un-gzipped, and the track as GPX', async () => {
    const original = await call(t.app, 'GET', `/api/v1/entry/${id}/original`, { token: runner.token });
    expect(original.statusCode).toBe(200);
    expect(original.headers['content-disposition']).toContain('filename="watch.fit"');
    expect(Buffer.from(original.rawPayload).equals(Buffer.from(watchFit()))).toBe(true);
    const gpx = await call(t.app, 'GET', `/api/v1/entry/${id}/track.gpx`, { token: runner.token });
    expect(gpx.statusCode).toBe(200);
    expect(gpx.headers['content-type']).toContain('application/gpx+xml');
    expect(gpx.body).toContain('<gpx');
    expect(gpx.body.match(/<trkseg>/g)).toHaveLength(2);
    expect(gpx.body.match(/<trkpt /g)).toHaveLength(542);
    expect(gpx.body).toContain(`<time>${WATCH_START.toISOString()}</time>`);
    expect(gpx.body).toMatch(/<gpxtpx:hr>120<\/gpxtpx:hr>/);
  });

  it('is the run owner’s and the admin’s alone; guests get 401', async () => {
    const other = await registerUser(t.app);
    for (const path of ['track', 'original', 'track.gpx']) {
      expect((await call(t.app, 'GET', `/api/v1/entry/${id}/${path}`, { token: other.token })).statusCode).toBe(403);
      expect((await call(t.app, 'GET', `/api/v1/entry/${id}/${path}`, { token: admin.token })).statusCode).toBe(200);
      expect((await call(t.app, 'GET', `/api/v1/entry/${id}/${path}`)).statusCode).toBe(401);
      expect((await call(t.app, 'GET', `/api/v1/entry/999999/${path}`, { token: admin.token })).statusCode).toBe(404);
    }
  });

  it('goes with its run, and with its runner', async () => {
    const second = await importResult(t.app, runner.token, [{ name: 'route.gpx', content: watchGpx() }]);
    const gpxId = second.rows.find((r) => r.status === 'created')!.entry!.id!;
    expect(await tableCount('tracks', gpxId)).toBe(1);
    expect((await call(t.app, 'DELETE', `/api/v1/entry/${gpxId}`, { token: runner.token })).statusCode).toBe(200);
    expect(await tableCount('tracks', gpxId)).toBe(0);
    expect(await tableCount('track_files', gpxId)).toBe(0);
    expect((await call(t.app, 'DELETE', `/api/v1/user/${runner.user.id}`, { token: admin.token })).statusCode).toBe(
      200,
    );
    expect(await tableCount('tracks', id)).toBe(0);
    expect(await tableCount('track_files', id)).toBe(0);
  });
});

describe('the stored size of a track (§17)', () => {
  it('keeps an hour of samples every second, with what the run page and the map need, in at most 25 KB', async () => {
    const runner = await registerUser(t.app, { timezone: 'UTC' });
    const { realisticFit } = await import('../imports/track-fixtures.js');
    const fit = realisticFit(3600, { start: new Date('2026-02-01T07:00:00Z'), fractionalCadence: true });
    const id = (await importResult(t.app, runner.token, [{ name: 'hour.fit', content: fit }])).rows[0]!.entry!.id!;
    const row = await t.app.appContext.db
      .selectFrom('tracks')
      .select(['samples', 'data', 'analysis', 'hr_summary', 'map_route'])
      .where('entry_id', '=', id)
      .executeTakeFirstOrThrow();
    const bytes = (value: unknown) =>
      value == null ? 0 : typeof value === 'string' ? Buffer.byteLength(value) : (value as Uint8Array).byteLength;
    const stored = bytes(row.data) + bytes(row.analysis) + bytes(row.hr_summary) + bytes(row.map_route);
    expect(Number(row.samples)).toBeGreaterThanOrEqual(3600);
    expect(stored).toBeGreaterThan(5_000);
    expect(stored).toBeLessThanOrEqual(25_000);
  });
});

describe('a run without a track', () => {
  it('answers 404 with the contract message', async () => {
    const runner = await registerUser(t.app);
    const typed = await createEntry(t.app, runner.token, { date: '2026-03-01', distance: 5, time: '00:25:00' });
    expect(typed.has_track).toBe(false);
    const res = await trackOf(runner.token, typed.id);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'This run has no track.' });
    const original = await call(t.app, 'GET', `/api/v1/entry/${typed.id}/original`, { token: runner.token });
    expect(original.json()).toEqual({ message: 'This run has no original file.' });
  });

  it('gets the track of a file whose run is its duplicate (track_added), once', async () => {
    const runner = await registerUser(t.app, { timezone: 'UTC' });
    // The watch's run as a Strava export (or typing) stored it: same day, distance within 1%, time within 5 s.
    const typed = await createEntry(t.app, runner.token, { date: '2024-05-01', distance: 1.62, time: '00:09:02' });
    const dry = await importResult(t.app, runner.token, [{ name: 'watch.fit', content: watchFit() }], { dry_run: '1' });
    expect(dry).toMatchObject({ created: 0, duplicates: 0, tracks_added: 1 });
    expect(dry.rows[0]).toMatchObject({ status: 'would_add_track', entry: { id: typed.id, has_track: false } });
    expect((await trackOf(runner.token, typed.id)).statusCode).toBe(404);

    const done = await importResult(t.app, runner.token, [
      { name: 'watch-copy.fit', content: watchFit() },
      { name: 'watch.fit', content: watchFit() },
    ]);
    // Files in upload order: the first gives the track, the second is the same run as the first.
    expect(done.rows.map((r) => r.status)).toEqual(['track_added', 'duplicate']);
    expect(done).toMatchObject({ created: 0, duplicates: 1, tracks_added: 1 });
    expect(done.rows[0]!.entry).toMatchObject({ id: typed.id, distance: 1.62, time: '00:09:02', has_track: true });
    expect((await trackOf(runner.token, typed.id)).statusCode).toBe(200);

    const again = await importResult(t.app, runner.token, [{ name: 'watch.fit', content: watchFit() }]);
    expect(again).toMatchObject({ created: 0, duplicates: 1, tracks_added: 0 });
  });
});

describe('the map of every run', () => {
  it('draws each tracked run with positions, of a year or all, oldest first', async () => {
    const runner = await registerUser(t.app, { timezone: 'UTC' });
    await importResult(t.app, runner.token, [{ name: 'watch.fit', content: watchFit() }]);
    await createEntry(t.app, runner.token, { date: '2025-06-01', distance: 5, time: '00:25:00' });
    const all = (await call(t.app, 'GET', '/api/v1/insights/routes', { token: runner.token })).json();
    expect(all.routes.runs).toHaveLength(1);
    expect(all.routes.runs[0]).toMatchObject({ date: '2024-05-01', distance: 1.62 });
    expect(all.routes.bounds[0][0]).toBeCloseTo(48.8, 5);
    const none = (
      await call(t.app, 'GET', '/api/v1/insights/routes', { token: runner.token, query: { year: 2025 } })
    ).json();
    expect(none.routes).toEqual({ bounds: null, runs: [] });
    expect((await call(t.app, 'GET', '/api/v1/insights/routes')).statusCode).toBe(401);
  });

  it('is never older than the runner’s runs: a run imported, moved or deleted shows at once', async () => {
    const runner = await registerUser(t.app, { timezone: 'UTC' });
    const routes = async () =>
      (await call(t.app, 'GET', '/api/v1/insights/routes', { token: runner.token })).json().routes.runs as {
        entry_id: number;
        date: string;
      }[];
    expect(await routes()).toEqual([]);
    const id = (await importResult(t.app, runner.token, [{ name: 'watch.fit', content: watchFit() }])).rows[0]!.entry!
      .id!;
    expect((await routes()).map((r) => r.entry_id)).toEqual([id]);
    const moved = await call(t.app, 'PUT', `/api/v1/entry/${id}`, {
      token: runner.token,
      body: { date: '2023-01-02', distance: 1.62, time: '00:10:00' },
    });
    expect(moved.statusCode).toBe(200);
    expect(await routes()).toMatchObject([{ entry_id: id, date: '2023-01-02' }]);
    expect((await call(t.app, 'DELETE', `/api/v1/entry/${id}`, { token: runner.token })).statusCode).toBe(200);
    expect(await routes()).toEqual([]);
  });
});

describe('the GPX of a track', () => {
  it('round-trips through an import', async () => {
    const runner = await registerUser(t.app, { timezone: 'UTC' });
    const first = await importResult(t.app, runner.token, [{ name: 'watch.fit', content: watchFit() }]);
    const id = first.rows[0]!.entry!.id!;
    const gpx = (await call(t.app, 'GET', `/api/v1/entry/${id}/track.gpx`, { token: runner.token })).body;
    const other = await registerUser(t.app, { timezone: 'UTC' });
    const back = await importResult(t.app, other.token, [{ name: 'back.gpx', content: gzipSync(gpx) }]);
    expect(back.rows[0]).toMatchObject({ status: 'created', entry: { date: '2024-05-01', has_track: true } });
    const original = await call(t.app, 'GET', `/api/v1/entry/${back.rows[0]!.entry!.id}/original`, {
      token: other.token,
    });
    expect(gunzipSync(gzipSync(original.rawPayload)).toString()).toBe(gpx);
  });
});

describe('records and predictions from best efforts (§15)', () => {
  it('count a tracked run through its best efforts only, as recorded, and a typed run as a whole', async () => {
    const runner = await registerUser(t.app, { timezone: 'UTC' });
    const watch = (await importResult(t.app, runner.token, [{ name: 'watch.fit', content: watchFit() }])).rows[0]!;
    const tracked = watch.entry!.id!;
    const typed = await createEntry(t.app, runner.token, { date: '2024-06-01', distance: 1.02, time: '00:06:00' });
    const records = async () =>
      (await call(t.app, 'GET', '/api/v1/insights/records', { token: runner.token })).json().records as {
        key: string;
        time: string;
        entry_id: number;
        source: string;
      }[];
    // 1 km: the track's fastest 1,000 m (00:06:33, elapsed over the pause) against the typed run's
    // 6:00 x 1,000 / 1,020 = 5:53. 1 mile: only the track covers it (1,620 m), through its effort.
    expect(await records()).toMatchObject([
      { key: '1k', time: '00:05:53', entry_id: typed.id, source: 'run' },
      { key: '1mi', entry_id: tracked, source: 'best_effort' },
    ]);
    const { track } = RunTrackEnvelopeSchema.parse((await trackOf(runner.token, tracked)).json());
    const mile = track.best_efforts.find((e) => e.key === '1mi')!;
    expect((await records())[1]!.time).toBe(mile.time);

    // Editing the tracked run's numbers leaves its efforts as recorded; moving its date moves the record's.
    const edited = await call(t.app, 'PUT', `/api/v1/entry/${tracked}`, {
      token: runner.token,
      body: { date: '2024-05-02', distance: 0.5, time: '00:01:00' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await records())[1]).toMatchObject({ key: '1mi', entry_id: tracked, time: mile.time });
    const progression = (await call(t.app, 'GET', '/api/v1/insights/records', { token: runner.token })).json()
      .records[1].progression;
    expect(progression).toEqual([{ date: '2024-05-02', time: mile.time, entry_id: tracked }]);

    expect((await call(t.app, 'DELETE', `/api/v1/entry/${tracked}`, { token: runner.token })).statusCode).toBe(200);
    expect((await records()).map((r) => r.key)).toEqual(['1k']);
  });

  it('predict from a best effort of 5 km or more when it has the highest VDOT', async () => {
    const runner = await registerUser(t.app, { timezone: 'UTC' });
    // An hour's run: its 5 km and 10 km best efforts are candidates beside the run itself.
    const { realisticFit } = await import('../imports/track-fixtures.js');
    const start = new Date('2026-03-01T07:00:00Z');
    const result = await importResult(t.app, runner.token, [
      { name: 'long.fit', content: realisticFit(3600, { start }) },
    ]);
    const run = result.rows[0]!.entry!;
    const predictions = (await call(t.app, 'GET', '/api/v1/insights/predictions', { token: runner.token })).json()
      .predictions;
    const { track } = RunTrackEnvelopeSchema.parse((await trackOf(runner.token, run.id!)).json());
    const efforts = track.best_efforts.filter((e) => e.distance >= 5);
    expect(efforts.length).toBeGreaterThan(0);
    // Daniels-Gilbert VDOT, written out here: the highest of the run's and its efforts' wins.
    const vdotOf = (metres: number, time: string) => {
      const [h, m, sec] = time.split(':').map(Number);
      const t = (h! * 3600 + m! * 60 + sec!) / 60;
      const v = metres / t;
      return (
        (-4.6 + 0.182258 * v + 0.000104 * v * v) /
        (0.8 + 0.1894393 * Math.exp(-0.012778 * t) + 0.2989558 * Math.exp(-0.1932605 * t))
      );
    };
    const candidates = [
      { kind: 'run', key: null, distance: run.distance, time: run.time, v: vdotOf(run.distance * 1000, run.time) },
      ...efforts.map((e) => ({
        kind: 'best_effort',
        key: e.key,
        distance: e.distance,
        time: e.time,
        v: vdotOf(e.distance * 1000, e.time),
      })),
    ];
    const best = candidates.reduce((a, c) => (c.v > a.v ? c : a));
    expect(predictions.source).toMatchObject({
      entry_id: run.id,
      kind: best.kind,
      key: best.key,
      distance: best.distance,
      time: best.time,
      vdot: Math.round(best.v * 10 + 1e-9) / 10,
    });
  });
});

describe('training load from heart rate (§15)', () => {
  it('estimates the effort of an unrated run from its heart rate, for the maximum heart rate now', async () => {
    const runner = await registerUser(t.app, { timezone: 'UTC' });
    await importResult(t.app, runner.token, [{ name: 'watch.fit', content: watchFit() }]);
    const load = async () =>
      (await call(t.app, 'GET', '/api/v1/insights/load', { token: runner.token, query: { date: '2024-05-01' } })).json()
        .load;
    // The watch's samples, one a second of timer time (0-300 s, then 360-600 s on the clock), heart
    // rate 120 + timer mod 40; each weighs 1 s but the one before the pause and the last (§14).
    const expected = (maxUsed: number) => {
      let weighted = 0;
      let total = 0;
      for (let t = 0; t < 600; t++) {
        if ((t > 300 && t < 360) || t === 300) continue;
        const hr = 120 + ((t <= 300 ? t : t - 60) % 40);
        const zone = [90, 80, 70, 60, 50].findIndex((p) => 100 * hr >= p * maxUsed);
        weighted += zone < 0 ? 1 : [9, 7, 5, 3, 2][zone]!;
        total += 1;
      }
      return Math.max(1, Math.round(weighted / total));
    };
    // No maximum set: the highest sample of the runner's tracks, 159.
    let body = await load();
    expect(body).toMatchObject({ estimated_runs: 1, hr_estimated_runs: 1 });
    expect(body.acute).toBe(expected(159) * 9);
    const set = await call(t.app, 'PUT', `/api/v1/user/${runner.user.id}`, {
      token: runner.token,
      body: { name: runner.user.name, email: runner.user.email, max_heart_rate: 200 },
    });
    expect(set.statusCode, set.body).toBe(200);
    body = await load();
    expect(expected(200)).not.toBe(expected(159));
    expect(body.acute).toBe(expected(200) * 9);
    // An entered effort wins over the estimate.
    const id = (await call(t.app, 'GET', '/api/v1/entry', { token: runner.token })).json().entries.data[0].id;
    await call(t.app, 'PUT', `/api/v1/entry/${id}`, {
      token: runner.token,
      body: { date: '2024-05-01', distance: 1.62, time: '00:09:00', effort: 2 },
    });
    expect(await load()).toMatchObject({ estimated_runs: 0, hr_estimated_runs: 0, acute: 18 });
  });
});
