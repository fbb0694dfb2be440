/**
 * The zip export (CONTRACT.md §16) through the API, on SQLite and on PostgreSQL
 * (TEST_DATABASE_URL): its members and its JSON, originals byte for byte and a GPX where no
 * original is kept; the round trip into an empty account (runs, tracks, shoes, goals), again
 * (nothing), and into an account that has the runs without tracks (track_added); the dry run
 * answering what the import does; a streamed archive; and each runner's own data only.
 */
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportResult, ImportRow } from '../../../core/imports.js';
import { EntriesEnvelopeSchema, type Entry } from '../../../core/schemas.js';
import { zipProgress } from '../../features/exports/exports.service.js';
import {
  call,
  createEntry,
  createGoal,
  createShoe,
  createTestApp,
  loginAdmin,
  registerUser,
  type Account,
  type TestApp,
} from '../helpers.js';
import { importResult, zip, type Part } from '../imports/fixtures.js';
import { multiSessionFit, realisticFit, watchFit, watchGpx, watchTcx } from '../imports/track-fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { now: '2026-03-18T12:00:00.000Z' });
});
afterAll(async () => {
  await t.close();
});

interface ExportedJson {
  format: string;
  shoes: { name: string; start_km: number }[];
  goals: { period: string; metric: string; target: number }[];
  entries: (Entry & { shoe: string | null; file?: string })[];
}

async function exportZip(token: string): Promise<Record<string, Uint8Array>> {
  const res = await call(t.app, 'GET', '/api/v1/export', { token, query: { format: 'zip' } });
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(res.headers['content-type']).toBe('application/zip');
  expect(res.headers['content-disposition']).toBe('attachment; filename="running-times-2026-03-18.zip"');
  return unzipSync(new Uint8Array(res.rawPayload));
}

const jsonOf = (members: Record<string, Uint8Array>) =>
  JSON.parse(new TextDecoder().decode(members['running-times.json'])) as ExportedJson;

async function allRuns(token: string): Promise<Entry[]> {
  const res = await call(t.app, 'GET', '/api/v1/entry', { token, query: { per_page: 100, sort: 'date' } });
  expect(res.statusCode).toBe(200);
  return EntriesEnvelopeSchema.parse(res.json()).entries.data;
}

/** What a run is, whatever its account: its numbers and text. */
const runKey = (e: Pick<Entry, 'date' | 'distance' | 'time' | 'title' | 'notes' | 'kind' | 'effort'>) =>
  [e.date, e.distance, e.time, e.title, e.notes, e.kind, e.effort].join('|');

/** A run's page (GET /entry/{id}/track) without its id: equal for the same track in two accounts. */
async function trackWithoutId(token: string, id: number): Promise<unknown> {
  const res = await call(t.app, 'GET', `/api/v1/entry/${id}/track`, { token });
  expect(res.statusCode, res.body).toBe(200);
  const { entry_id: _id, ...rest } = res.json<{ track: Record<string, unknown> }>().track;
  return rest;
}

/** What a dry run's status says the import will do. */
const REAL_STATUS: Partial<Record<ImportRow['status'], ImportRow['status']>> = {
  would_create: 'created',
  would_add_track: 'track_added',
};

/** The dry run answers exactly what the import then did: counts, and each row (a created run's entry but its id). */
function expectDryRunAnswers(dry: ImportResult, done: ImportResult): void {
  const counts = (r: ImportResult) => [r.created, r.duplicates, r.skipped, r.tracks_added];
  expect(counts(dry)).toEqual(counts(done));
  const outline = (r: ImportRow) => [r.source, REAL_STATUS[r.status] ?? r.status, r.reason, r.duplicate_of?.id];
  expect(dry.rows.map(outline)).toEqual(done.rows.map(outline));
  dry.rows.forEach((row, i) => {
    const real = done.rows[i]!.entry!;
    if (row.status === 'would_create') {
      const { id: _id, created_at: _created, updated_at: _updated, ...preview } = real;
      // A shoe the import creates has no id before it is stored.
      expect(row.entry).toEqual({ ...preview, shoe_id: row.entry!.shoe_id === null ? null : preview.shoe_id });
    }
    if (row.status === 'would_add_track') expect(row.entry!.id).toBe(real.id);
  });
}

describe('the zip export of a runner with tracks', () => {
  let owner: Account;
  /** The runs of each activity file imported, by file. */
  const tracked: Record<string, number> = {};
  let typed: Entry[] = [];
  let multi: number[] = [];
  let noOriginal: number;
  let exported: Record<string, Uint8Array>;

  beforeAll(async () => {
    owner = await registerUser(t.app, { timezone: 'UTC' });
    const shoeId = await createShoe(t.app, owner.token, { name: 'Pegasus, "40"', brand: 'Nike', start_km: 120.5 });
    await createGoal(t.app, owner.token, { period: 'month', metric: 'distance', target: 120 });
    typed = [
      await createEntry(t.app, owner.token, {
        date: '2024-04-02',
        distance: 10,
        time: '00:50:00',
        title: 'Tempo, "fast"',
        notes: 'Line 1\nLine 2',
        kind: 'workout',
        effort: 7,
        shoe_id: shoeId,
      }),
      await createEntry(t.app, owner.token, { date: '2024-04-03', distance: 5, time: '00:27:30' }),
    ];
    const files: Record<string, Uint8Array | string> = {
      'watch.fit': watchFit(),
      'route.gpx': watchGpx(),
      'hills.tcx': watchTcx(),
      'long.fit': realisticFit(1800, { start: new Date('2024-06-01T07:00:00Z') }),
    };
    for (const [name, content] of Object.entries(files)) {
      const result = await importResult(t.app, owner.token, [{ name, content }]);
      expect(result.created, name).toBe(1);
      tracked[name] = result.rows[0]!.entry!.id!;
    }
    const sessions = await importResult(t.app, owner.token, [{ name: 'brick.fit', content: multiSessionFit().bytes }]);
    multi = sessions.rows.filter((r) => r.status === 'created').map((r) => r.entry!.id!);
    expect(multi).toHaveLength(2);
    // An original over 32 MiB keeps its track, not its file: as if this one had been.
    noOriginal = tracked['long.fit']!;
    await t.app.appContext.db.deleteFrom('track_files').where('entry_id', '=', noOriginal).execute();
    exported = await exportZip(owner.token);
  });

  it('holds running-times.json and each tracked run’s original, or its GPX where none is kept', async () => {
    const fileOf = (id: number, ext: string) => `activities/${id}.${ext}`;
    expect(Object.keys(exported).sort()).toEqual(
      [
        'running-times.json',
        fileOf(tracked['watch.fit']!, 'fit'),
        fileOf(tracked['route.gpx']!, 'gpx'),
        fileOf(tracked['hills.tcx']!, 'tcx'),
        fileOf(noOriginal, 'gpx'),
        ...multi.map((id) => fileOf(id, 'fit')),
      ].sort(),
    );
    const bytes = (name: string) => Buffer.from(exported[name]!);
    expect(bytes(fileOf(tracked['watch.fit']!, 'fit')).equals(Buffer.from(watchFit()))).toBe(true);
    expect(bytes(fileOf(tracked['route.gpx']!, 'gpx')).toString('utf8')).toBe(watchGpx());
    expect(bytes(fileOf(tracked['hills.tcx']!, 'tcx')).toString('utf8')).toBe(watchTcx());
    for (const id of multi) expect(bytes(fileOf(id, 'fit')).equals(Buffer.from(multiSessionFit().bytes))).toBe(true);
    // Where no original is kept, the track as GET /entry/{id}/track.gpx gives it.
    const gpx = await call(t.app, 'GET', `/api/v1/entry/${noOriginal}/track.gpx`, { token: owner.token });
    expect(gpx.statusCode).toBe(200);
    expect(bytes(fileOf(noOriginal, 'gpx')).toString('utf8')).toBe(gpx.body);
    expect(gpx.body.match(/<trkpt /g)).toHaveLength(1801);
  });

  it('writes the JSON export in running-times.json: shoes with start_km, goals, a file on tracked runs only', async () => {
    const json = jsonOf(exported);
    expect(json.format).toBe('running-times');
    expect(json.shoes).toMatchObject([{ name: 'Pegasus, "40"', start_km: 120.5 }]);
    expect(json.goals).toMatchObject([{ period: 'month', metric: 'distance', target: 120 }]);
    const runs = await allRuns(owner.token);
    expect(json.entries.map((e) => e.id)).toEqual(runs.map((e) => e.id));
    for (const entry of json.entries) {
      const { file, shoe, ...rest } = entry;
      expect(rest).toEqual(runs.find((r) => r.id === entry.id));
      expect(shoe).toBe(entry.id === typed[0]!.id ? 'Pegasus, "40"' : null);
      if (entry.has_track) expect(file).toMatch(new RegExp(`^activities/${entry.id}\\.(fit|gpx|tcx)$`));
      else expect('file' in entry).toBe(false);
      if (file) expect(exported[file]).toBeDefined();
    }
    expect(json.entries.filter((e) => e.file)).toHaveLength(6);
  });

  it('recreates every run, its track, shoes and goals in an empty account, and nothing the second time', async () => {
    const archive = Buffer.from(zip(exported));
    const other = await registerUser(t.app, { timezone: 'UTC' });
    const upload: Part[] = [{ name: 'running-times-2026-03-18.zip', content: archive }];
    const dry = await importResult(t.app, other.token, upload, { dry_run: '1' });
    const done = await importResult(t.app, other.token, upload);
    expectDryRunAnswers(dry, done);
    const mine = await allRuns(owner.token);
    expect(done).toMatchObject({ created: mine.length, duplicates: 0, skipped: 0, tracks_added: 0 });
    // The files the JSON names are not imported on their own.
    expect(done.rows.every((r) => r.source.startsWith('running-times.json#'))).toBe(true);
    const theirs = await allRuns(other.token);
    expect(theirs.map(runKey).sort()).toEqual(mine.map(runKey).sort());
    const twinOf = (run: Entry) => theirs.find((e) => runKey(e) === runKey(run))!;
    for (const run of mine) {
      expect(twinOf(run).has_track, runKey(run)).toBe(run.has_track);
      if (!run.has_track || run.id === noOriginal) continue;
      // From its original, every run of a file with several has its own track.
      expect(await trackWithoutId(other.token, twinOf(run).id)).toEqual(await trackWithoutId(owner.token, run.id));
    }
    // From the GPX: the same positions and samples, though a GPX keeps neither laps nor the device's distances.
    const fromGpx = (await trackWithoutId(other.token, twinOf(mine.find((r) => r.id === noOriginal)!).id)) as {
      samples: number;
      route: string;
    };
    const fromFit = (await trackWithoutId(owner.token, noOriginal)) as { samples: number; route: string };
    expect(fromGpx.samples).toBe(fromFit.samples);
    expect(fromGpx.route).toBe(fromFit.route);
    const shoes = (await call(t.app, 'GET', '/api/v1/shoes', { token: other.token })).json<{
      shoes: { id: number; name: string; brand: string; start_km: number }[];
    }>().shoes;
    expect(shoes).toMatchObject([{ name: 'Pegasus, "40"', brand: 'Nike', start_km: 120.5 }]);
    expect(twinOf(typed[0]!).shoe_id).toBe(shoes[0]!.id);
    const goals = (await call(t.app, 'GET', '/api/v1/goals', { token: other.token })).json<{
      goals: { period: string; target: number }[];
    }>().goals;
    expect(goals).toMatchObject([{ period: 'month', target: 120 }]);

    const again = await importResult(t.app, other.token, upload);
    expect(again).toMatchObject({ created: 0, duplicates: mine.length, tracks_added: 0 });
    expect(await allRuns(other.token)).toHaveLength(mine.length);
  });

  it('adds the tracks to an account that has the runs without them (track_added), once', async () => {
    const archive = Buffer.from(zip(exported));
    const other = await registerUser(t.app, { timezone: 'UTC' });
    const mine = await allRuns(owner.token);
    for (const run of mine) {
      await createEntry(t.app, other.token, { date: run.date, distance: run.distance, time: run.time });
    }
    const upload: Part[] = [{ name: 'export.zip', content: archive }];
    const dry = await importResult(t.app, other.token, upload, { dry_run: '1' });
    const done = await importResult(t.app, other.token, upload);
    expectDryRunAnswers(dry, done);
    expect(done).toMatchObject({ created: 0, duplicates: typed.length, tracks_added: mine.length - typed.length });
    const theirs = await allRuns(other.token);
    const byNumbers = (run: Entry) =>
      theirs.find((e) => `${e.date} ${e.distance} ${e.time}` === `${run.date} ${run.distance} ${run.time}`)!;
    for (const run of mine.filter((r) => r.has_track && r.id !== noOriginal)) {
      expect(await trackWithoutId(other.token, byNumbers(run).id)).toEqual(await trackWithoutId(owner.token, run.id));
    }
    // The stored runs' own text stays as it was typed.
    expect(theirs.every((e) => e.title === null)).toBe(true);
    const again = await importResult(t.app, other.token, upload);
    expect(again).toMatchObject({ created: 0, duplicates: mine.length, tracks_added: 0 });
  });

  it('goes in parts too: the JSON, then the original files, each giving its run its track', async () => {
    const other = await registerUser(t.app, { timezone: 'UTC' });
    const mine = await allRuns(owner.token);
    const json = await importResult(t.app, other.token, [
      { name: 'running-times.json', content: Buffer.from(exported['running-times.json']!) },
    ]);
    expect(json).toMatchObject({ created: mine.length, tracks_added: 0 });
    expect((await allRuns(other.token)).some((e) => e.has_track)).toBe(false);
    // The originals: a GPX made from a track measures its distance between noisy positions, not as the watch did.
    const { 'running-times.json': _json, [`activities/${noOriginal}.gpx`]: _gpx, ...originals } = exported;
    const files = await importResult(t.app, other.token, [{ name: 'activities.zip', content: zip(originals) }]);
    // The file of several runs comes twice (once per run): its second copy brings runs the first brought.
    const withOriginals = mine.filter((r) => r.has_track && r.id !== noOriginal);
    expect(files).toMatchObject({ created: 0, tracks_added: withOriginals.length, duplicates: 2 });
    const tracked = (runs: Entry[]) =>
      runs
        .filter((e) => e.has_track)
        .map(runKey)
        .sort();
    expect(tracked(await allRuns(other.token))).toEqual(withOriginals.map(runKey).sort());
  });

  it('imports a row whose file is missing from the archive without a track', async () => {
    const watchFile = `activities/${tracked['watch.fit']!}.fit`;
    const { [watchFile]: _dropped, ...rest } = exported;
    const other = await registerUser(t.app, { timezone: 'UTC' });
    const done = await importResult(t.app, other.token, [{ name: 'export.zip', content: zip(rest) }]);
    expect(done.created).toBe((await allRuns(owner.token)).length);
    const watchRun = jsonOf(exported).entries.find((e) => e.file === watchFile)!;
    const row = done.rows.find((r) => r.entry && runKey(r.entry) === runKey(watchRun))!;
    expect(row).toMatchObject({ status: 'created', entry: { has_track: false } });
    expect(done.rows.filter((r) => r.entry?.has_track)).toHaveLength(5);
  });

  it('is the caller’s own data only; guests get 401', async () => {
    const other = await registerUser(t.app);
    await createEntry(t.app, other.token, { date: '2025-01-01', distance: 3, time: '00:18:00' });
    const theirs = await exportZip(other.token);
    expect(Object.keys(theirs)).toEqual(['running-times.json']);
    const json = jsonOf(theirs);
    expect(json.entries.map((e) => e.distance)).toEqual([3]);
    expect(json.shoes).toEqual([]);
    const admin = await loginAdmin(t.app);
    expect(jsonOf(await exportZip(admin.token)).entries.every((e) => e.user_id === admin.user.id)).toBe(true);
    const guest = await call(t.app, 'GET', '/api/v1/export', { query: { format: 'zip' } });
    expect(guest.statusCode).toBe(401);
    expect(guest.json()).toEqual({ message: 'Unauthenticated.' });
  });
});

describe('an original whose name says no activity kind', () => {
  it('is named in the zip by its content, as an import tells it', async () => {
    const runner = await registerUser(t.app, { timezone: 'UTC' });
    const ids: Record<string, number> = {};
    for (const [name, content] of [
      ['watch-export', watchFit()],
      ['route.xml', watchGpx()],
    ] as const) {
      const result = await importResult(t.app, runner.token, [{ name, content }]);
      expect(result.rows[0], name).toMatchObject({ status: 'created', entry: { has_track: true } });
      ids[name] = result.rows[0]!.entry!.id!;
    }
    const members = await exportZip(runner.token);
    const fit = `activities/${ids['watch-export']!}.fit`;
    const gpx = `activities/${ids['route.xml']!}.gpx`;
    expect(Object.keys(members).sort()).toEqual([fit, gpx, 'running-times.json'].sort());
    expect(Buffer.from(members[fit]!).equals(Buffer.from(watchFit()))).toBe(true);
    expect(Buffer.from(members[gpx]!).toString('utf8')).toBe(watchGpx());
  });
});

describe('a zip export of many runs', () => {
  const TRACKED = 8;

  it('is streamed: its first bytes leave before the activity files are read, one at a time', async () => {
    const runner = await registerUser(t.app, { timezone: 'UTC' });
    const lines = ['date,distance_km,time,title,notes,kind,effort,shoe'];
    for (let i = 0; i < 300; i++) {
      lines.push(
        `${new Date(Date.UTC(2023, 0, 1) + i * 86_400_000).toISOString().slice(0, 10)},${5 + (i % 9)},00:40:00,Run ${i},,easy,,`,
      );
    }
    expect(
      (await importResult(t.app, runner.token, [{ name: 'runs.csv', content: `${lines.join('\n')}\n` }])).created,
    ).toBe(300);
    const watches: Record<string, Uint8Array> = {};
    for (let i = 0; i < TRACKED; i++) {
      watches[`activities/${i}.fit`] = realisticFit(3600, {
        seed: i + 1,
        start: new Date(Date.UTC(2024, 1, 1 + i, 7)),
      });
    }
    expect((await importResult(t.app, runner.token, [{ name: 'watches.zip', content: zip(watches) }])).created).toBe(
      TRACKED,
    );

    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/export?format=zip',
      headers: { authorization: `Bearer ${runner.token}` },
      payloadAsStream: true,
    });
    expect(res.statusCode).toBe(200);
    const chunks: Buffer[] = [];
    const reader = res.stream()[Symbol.asyncIterator]();
    const first = await reader.next();
    chunks.push(first.value as Buffer);
    // The reader stops: the archive may fill what the stream holds, then waits for it.
    for (let i = 0; i < 50; i++) await new Promise<void>((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => setTimeout(resolve, 200));
    // One file in the stream's buffers at most, and the one being read: never the archive.
    expect(zipProgress.filesRead).toBeLessThanOrEqual(2);
    for (let next = await reader.next(); !next.done; next = await reader.next()) chunks.push(next.value as Buffer);
    expect(zipProgress.filesRead).toBe(TRACKED);
    const members = unzipSync(new Uint8Array(Buffer.concat(chunks)));
    expect(Object.keys(members)).toHaveLength(TRACKED + 1);
    expect(jsonOf(members).entries).toHaveLength(300 + TRACKED);
    for (const [name, bytes] of Object.entries(watches)) {
      const seed = Number(/(\d+)\.fit$/.exec(name)![1]);
      const entry = jsonOf(members).entries.find((e) => e.date === `2024-02-${String(seed + 1).padStart(2, '0')}`)!;
      expect(Buffer.from(members[entry.file!]!).equals(Buffer.from(bytes))).toBe(true);
    }
  });
});

describe('the export’s format', () => {
  it('is csv, json or zip', async () => {
    const { token } = await registerUser(t.app);
    const res = await call(t.app, 'GET', '/api/v1/export', { token, query: { format: 'tar' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.format).toEqual(['The format must be csv, json or zip.']);
  });
});
