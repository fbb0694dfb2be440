/**
 * The inbox folder's files (CONTRACT.md §20), in real folders with real renames: a file still
 * for the stability window is imported by the import service, moved to done/ or failed/ with its
 * report; unfinished names, dotfiles, subfolders, links and special files are left alone; hostile
 * files fail or are skipped with a reason; files there before the start are imported at start.
 * The reader's timing is shortened here (config.inboxTiming); §20's values stay the default.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InboxEnvelopeSchema, type InboxRow } from '../../../core/inbox.js';
import { INBOX_TIMING } from '../../config.js';
import { claimNameOf, numberedName } from '../../features/inbox/inbox.watcher.js';
import { call, createTestApp, registerUser, type Account, type TestApp } from '../helpers.js';
import { fitActivity } from '../imports/fit-fixtures.js';
import { gz, storedRuns } from '../imports/fixtures.js';
import { billionLaughs, gzipBomb, overlappingZip, zipBomb } from '../imports/hostile-fixtures.js';
import { garminExport } from './garmin-export.js';

const FAST = { ...INBOX_TIMING, stableMs: 300, scanMs: 100, listMs: 1000, keysMs: 200 };

let t: TestApp;
let root: string;
beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-folder-'));
  t = await createTestApp({ inboxDir: root, inboxTiming: FAST, importMaxBytes: 2 * 1024 * 1024 });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const day = (n: number) => new Date(Date.UTC(2025, 1, 1 + n, 7, 0, 0));
const fit = (n: number, metres = 10_000) => fitActivity({ start: day(n), metres, timerSeconds: 3000 });

interface Inbox {
  runner: Account;
  dir: string;
}

async function newInbox(app = t.app): Promise<Inbox> {
  const runner = await registerUser(app);
  const res = await call(app, 'POST', '/api/v1/inbox', { token: runner.token });
  const folder = InboxEnvelopeSchema.parse(res.json()).inbox.folder!;
  return { runner, dir: path.join(root, folder) };
}

async function recent(inbox: Inbox, lang?: string): Promise<InboxRow[]> {
  const res = await call(t.app, 'GET', '/api/v1/inbox', {
    token: inbox.runner.token,
    ...(lang ? { headers: { 'accept-language': lang } } : {}),
  });
  return InboxEnvelopeSchema.parse(res.json()).inbox.recent;
}

/** Waits until `done` holds (the reader works on its own clock), at most `ms`. */
async function until(done: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > end) throw new Error('the inbox did not get there in time');
    await sleep(50);
  }
}

const list = (dir: string) => fs.readdirSync(dir).sort();
const read = (file: string) => fs.readFileSync(file, 'utf8');

describe('a file dropped in the folder', () => {
  it('is imported once still, moved to done/ with its report, its rows listed', async () => {
    const inbox = await newInbox();
    fs.writeFileSync(path.join(inbox.dir, 'morning.fit'), fit(0));
    await until(() => fs.existsSync(path.join(inbox.dir, 'done', 'morning.fit')));
    expect(list(inbox.dir)).toEqual(['done', 'failed']);
    expect(list(path.join(inbox.dir, 'done'))).toEqual(['morning.fit', 'morning.fit.txt']);
    expect(Buffer.compare(fs.readFileSync(path.join(inbox.dir, 'done', 'morning.fit')), fit(0))).toBe(0);
    const runs = await storedRuns(t.app, inbox.runner.token);
    expect(runs.map((run) => [run.date, run.distance, run.has_track])).toEqual([['2025-02-01', 10, true]]);
    expect(read(path.join(inbox.dir, 'done', 'morning.fit.txt'))).toBe(`morning.fit\tcreated\t${runs[0]!.id}\t\n`);
    const rows = await recent(inbox);
    expect(rows).toEqual([
      {
        file: 'morning.fit',
        source: 'morning.fit',
        status: 'created',
        reason: null,
        reason_code: null,
        entry_id: runs[0]!.id,
        at: expect.any(String) as string,
      },
    ]);
  });

  it('found again (a sync tool copying a watch again) is a duplicate in done/, its name numbered', async () => {
    const inbox = await newInbox();
    fs.writeFileSync(path.join(inbox.dir, 'a.fit'), fit(1));
    await until(() => fs.existsSync(path.join(inbox.dir, 'done', 'a.fit.txt')));
    fs.writeFileSync(path.join(inbox.dir, 'a.fit'), fit(1));
    await until(() => fs.existsSync(path.join(inbox.dir, 'done', 'a (2).fit.txt')));
    expect(read(path.join(inbox.dir, 'done', 'a (2).fit.txt'))).toBe(
      'a.fit\tduplicate\t\tA run of the same day, distance and time is already stored.\n',
    );
    expect((await storedRuns(t.app, inbox.runner.token)).length).toBe(1);
    const rows = await recent(inbox, 'fr');
    expect(rows.map((row) => [row.status, row.reason_code])).toEqual([
      ['duplicate', 'duplicate_stored'],
      ['created', null],
    ]);
    expect(rows[0]!.reason).toBe(
      'Une sortie du même jour, avec la même distance et le même temps, est déjà enregistrée.',
    );
  });

  it('written slowly in parts as a sync tool does (a .tmp, then a rename) is read only once renamed and whole', async () => {
    const inbox = await newInbox();
    const whole = Buffer.from(fit(2));
    const tmp = path.join(inbox.dir, '.syncthing.run.fit.tmp');
    const partial = path.join(inbox.dir, 'run.fit.part');
    fs.writeFileSync(partial, whole.subarray(0, 100));
    for (let at = 0; at < whole.length; at += 64) {
      fs.appendFileSync(tmp, whole.subarray(at, at + 64));
      await sleep(FAST.stableMs / 4);
    }
    expect(list(path.join(inbox.dir, 'done'))).toEqual([]);
    fs.renameSync(tmp, path.join(inbox.dir, 'run.fit'));
    await until(() => fs.existsSync(path.join(inbox.dir, 'done', 'run.fit.txt')));
    expect(read(path.join(inbox.dir, 'done', 'run.fit.txt'))).toMatch(/^run\.fit\tcreated\t\d+\t\n$/);
    // The .part file is left alone.
    expect(fs.existsSync(partial)).toBe(true);
  });

  it('still growing is not read until it is still', async () => {
    const inbox = await newInbox();
    const whole = Buffer.from(fit(3));
    const file = path.join(inbox.dir, 'slow.fit');
    for (let at = 0; at < whole.length; at += 80) {
      fs.appendFileSync(file, whole.subarray(at, at + 80));
      await sleep(FAST.stableMs / 3);
      expect(fs.existsSync(path.join(inbox.dir, 'failed', 'slow.fit'))).toBe(false);
    }
    await until(() => fs.existsSync(path.join(inbox.dir, 'done', 'slow.fit.txt')));
    expect((await storedRuns(t.app, inbox.runner.token)).length).toBe(1);
  });

  it('that gives no run goes to failed/ with the reason', async () => {
    const inbox = await newInbox();
    fs.writeFileSync(
      path.join(inbox.dir, 'ride.fit'),
      fitActivity({ start: day(4), metres: 30_000, timerSeconds: 3600, sport: 'cycling' }),
    );
    fs.writeFileSync(path.join(inbox.dir, 'notes.docx'), 'hello');
    await until(
      () =>
        fs.existsSync(path.join(inbox.dir, 'failed', 'notes.docx.txt')) &&
        fs.existsSync(path.join(inbox.dir, 'failed', 'ride.fit.txt')),
    );
    expect(read(path.join(inbox.dir, 'failed', 'ride.fit.txt'))).toBe('ride.fit\tskipped\t\tNot a run (cycling).\n');
    expect(read(path.join(inbox.dir, 'failed', 'notes.docx.txt'))).toMatch(
      /^notes\.docx\tskipped\t\tThis file type is not supported/,
    );
    const rows = await recent(inbox);
    expect(rows.map((row) => row.reason_code).sort()).toEqual(['file_type_unsupported', 'not_a_run']);
  });

  it('a Garmin Connect export (zips in a zip) imports its runs', async () => {
    const inbox = await newInbox();
    const archive = await garminExport([
      { start: day(5), metres: 8000, seconds: 2400 },
      { start: day(6), metres: 12_000, seconds: 3600 },
    ]);
    fs.writeFileSync(path.join(inbox.dir, 'garmin.zip'), archive);
    await until(() => fs.existsSync(path.join(inbox.dir, 'done', 'garmin.zip.txt')));
    expect((await storedRuns(t.app, inbox.runner.token)).length).toBe(2);
    const report = read(path.join(inbox.dir, 'done', 'garmin.zip.txt'));
    expect(report).toContain(
      'DI_CONNECT/DI-Connect-Uploaded-Files/UploadedFiles_0-_Part1.zip/user@example.com_1000.fit\tcreated\t',
    );
  });
});

describe('what is left alone', () => {
  it('dotfiles, unfinished downloads, subfolders, links and special files: never opened nor moved', async () => {
    const inbox = await newInbox();
    const outside = path.join(root, '..', `outside-${path.basename(root)}.fit`);
    fs.writeFileSync(outside, fit(7));
    try {
      fs.writeFileSync(path.join(inbox.dir, '.hidden.fit'), fit(8));
      for (const end of ['part', 'tmp', 'partial', 'crdownload'])
        fs.writeFileSync(path.join(inbox.dir, `x.fit.${end}`), fit(9));
      fs.mkdirSync(path.join(inbox.dir, 'sub'));
      fs.writeFileSync(path.join(inbox.dir, 'sub', 'inside.fit'), fit(10));
      fs.symlinkSync(outside, path.join(inbox.dir, 'link.fit'));
      fs.symlinkSync(path.join(inbox.dir, 'sub'), path.join(inbox.dir, 'linked-folder'));
      execFileSync('mkfifo', [path.join(inbox.dir, 'pipe.fit')]);
      // A device that never ends (/dev/zero's numbers); making one needs root, as a container's user often is.
      if (process.getuid?.() === 0) execFileSync('mknod', [path.join(inbox.dir, 'zero.fit'), 'c', '1', '5']);
      const before = list(inbox.dir);
      // A plain file dropped after them shows the reader has been round several times.
      await sleep(FAST.stableMs * 3);
      fs.writeFileSync(path.join(inbox.dir, 'marker.fit'), fit(11));
      await until(() => fs.existsSync(path.join(inbox.dir, 'done', 'marker.fit.txt')));
      expect(list(inbox.dir)).toEqual(before);
      expect(list(path.join(inbox.dir, 'done'))).toEqual(['marker.fit', 'marker.fit.txt']);
      expect(list(path.join(inbox.dir, 'failed'))).toEqual([]);
      expect((await storedRuns(t.app, inbox.runner.token)).map((run) => run.date)).toEqual(['2025-02-12']);
      expect(fs.existsSync(outside)).toBe(true);
    } finally {
      fs.rmSync(outside, { force: true });
    }
  });

  it('done/ or failed/ that is a link is never written through: the file is set aside in its own folder', async () => {
    const inbox = await newInbox();
    const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-elsewhere-'));
    try {
      fs.rmSync(path.join(inbox.dir, 'done'), { recursive: true });
      fs.symlinkSync(elsewhere, path.join(inbox.dir, 'done'));
      fs.writeFileSync(path.join(inbox.dir, 'c.fit'), fit(12));
      await until(async () => (await recent(inbox)).length > 0);
      expect(fs.readdirSync(elsewhere)).toEqual([]);
      expect(list(inbox.dir)).toEqual(['.read-c.fit', 'done', 'failed']);
      expect((await storedRuns(t.app, inbox.runner.token)).length).toBe(1);
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('a folder whose key was removed is read no more', async () => {
    const inbox = await newInbox();
    await call(t.app, 'DELETE', '/api/v1/inbox', { token: inbox.runner.token });
    fs.writeFileSync(path.join(inbox.dir, 'late.fit'), fit(13));
    await sleep(FAST.stableMs * 4);
    expect(list(inbox.dir)).toEqual(['done', 'failed', 'late.fit']);
    expect((await storedRuns(t.app, inbox.runner.token)).length).toBe(0);
  });
});

describe('hostile files', () => {
  it('every §9 attack fails or is skipped with a reason; nothing is lost, the next file is read', async () => {
    const inbox = await newInbox();
    const files: Record<string, Uint8Array | string> = {
      'bomb.gpx.gz': gzipBomb(200),
      'bomb.zip': zipBomb(300),
      'overlap.zip': overlappingZip('<gpx></gpx>', 8),
      'laughs.gpx': billionLaughs(),
      'damaged.fit': Buffer.from(fit(14)).subarray(0, 60),
      'twice.fit.gz': gz(gz(fit(15))),
      [`dots..fit`]: fit(16),
      'line\nbreak.fit': fit(17),
    };
    for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(inbox.dir, name), content);
    await until(async () => (await recent(inbox)).length >= Object.keys(files).length, 60_000);
    const reports = (folder: string) => list(path.join(inbox.dir, folder)).filter((name) => name.endsWith('.txt'));
    expect(reports('failed').sort()).toEqual(
      ['bomb.gpx.gz', 'bomb.zip', 'overlap.zip', 'laughs.gpx', 'damaged.fit', 'twice.fit.gz']
        .map((n) => `${n}.txt`)
        .sort(),
    );
    expect(reports('done').sort()).toEqual(['dots..fit.txt', 'line\nbreak.fit.txt']);
    for (const name of reports('failed')) {
      const line = read(path.join(inbox.dir, 'failed', name));
      expect(line.split('\t')[3]!.trim().length, name).toBeGreaterThan(5);
    }
    // The report of a name with a line break stays one line a row.
    expect(read(path.join(inbox.dir, 'done', 'line\nbreak.fit.txt'))).toMatch(/^line break\.fit\tcreated\t\d+\t\n$/);
    expect((await storedRuns(t.app, inbox.runner.token)).length).toBe(2);
  });

  it('a still file swapped for a link before it is read is refused, left where it is, the outside file unread', async () => {
    const inbox = await newInbox();
    const outside = path.join(root, '..', `swapped-outside-${path.basename(root)}.fit`);
    fs.writeFileSync(outside, fit(30));
    // Two long imports (CSVs of many runs, each imported alone) hold the reader's two places: a file
    // found still meanwhile waits its turn, and is swapped for a link to a file outside before it.
    // 20,000 runs each (1900-2009): 8,000 were imported within the three still-times waited below on a fast machine.
    const csv = (first: number) =>
      'date,distance_km,time\n' +
      Array.from(
        { length: 20_000 },
        (_, i) => `${new Date(Date.UTC(1900, 0, 1 + first + i)).toISOString().slice(0, 10)},5,00:30:00\n`,
      ).join('');
    try {
      fs.writeFileSync(path.join(inbox.dir, 'long-1.csv'), csv(0));
      fs.writeFileSync(path.join(inbox.dir, 'long-2.csv'), csv(20_000));
      await until(() => list(inbox.dir).filter((name) => name.startsWith('.claim-')).length === 2);
      fs.writeFileSync(path.join(inbox.dir, 'v.fit'), fit(31));
      await sleep(FAST.stableMs * 3);
      expect(list(path.join(inbox.dir, 'done')), 'the long imports still hold both places').toEqual([]);
      fs.symlinkSync(outside, path.join(inbox.dir, '.v.fit.link'));
      fs.renameSync(path.join(inbox.dir, '.v.fit.link'), path.join(inbox.dir, 'v.fit'));
      await until(async () => (await recent(inbox)).some((row) => row.file === 'v.fit'), 60_000);
      const row = (await recent(inbox)).find((one) => one.file === 'v.fit')!;
      expect(row).toMatchObject({
        status: 'failed',
        reason: 'The file became a link or a special file before it was read: it was left where it is.',
      });
      expect(fs.lstatSync(path.join(inbox.dir, 'v.fit')).isSymbolicLink()).toBe(true);
      expect(Buffer.compare(fs.readFileSync(outside), fit(30))).toBe(0);
      await until(() => list(path.join(inbox.dir, 'done')).length === 4, 60_000);
      expect((await storedRuns(t.app, inbox.runner.token)).some((run) => run.date === '2025-03-03')).toBe(false);
    } finally {
      fs.rmSync(outside, { force: true });
    }
  }, 120_000);

  it('a file past IMPORT_MAX_BYTES fails without being waited for, even while it grows', async () => {
    const inbox = await newInbox();
    const file = path.join(inbox.dir, 'endless.gpx');
    const handle = fs.openSync(file, 'a');
    try {
      for (let i = 0; i < 40 && !fs.existsSync(path.join(inbox.dir, 'failed', 'endless.gpx.txt')); i++) {
        fs.writeSync(handle, Buffer.alloc(128 * 1024, 32));
        await sleep(50);
      }
    } finally {
      fs.closeSync(handle);
    }
    await until(() => fs.existsSync(path.join(inbox.dir, 'failed', 'endless.gpx.txt')));
    expect(read(path.join(inbox.dir, 'failed', 'endless.gpx.txt'))).toBe(
      'endless.gpx\tfailed\t\tThe file is larger than 2 MiB, the most one import may be: it was not imported.\n',
    );
    const [row] = await recent(inbox, 'nl');
    expect(row).toMatchObject({ status: 'failed', reason_code: 'inbox_too_large' });
  });
});

describe('a stop and a start', () => {
  it('imports the files dropped while the server was down when it starts, and the claim an earlier life left', async () => {
    const own = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-restart-'));
    const first = await createTestApp({ inboxDir: own, inboxTiming: FAST }, { sqliteFile: true });
    try {
      const runner = await registerUser(first.app);
      const res = await call(first.app, 'POST', '/api/v1/inbox', { token: runner.token });
      const dir = path.join(own, InboxEnvelopeSchema.parse(res.json()).inbox.folder!);
      await first.app.inboxReader!.stop();
      fs.writeFileSync(path.join(dir, 'while-down.fit'), fit(20));
      // A claim an earlier life of this process left (a stop during an import), and one of a server elsewhere.
      fs.writeFileSync(path.join(dir, claimNameOf('left.fit', '00000000')), fit(21));
      fs.writeFileSync(path.join(dir, `.claim-00000000-999999999-00000000-elsewhere.fit`), fit(22));
      expect(list(dir)).toContain('while-down.fit');
      // The reader starts again as the app does at its start.
      const { startInboxReader } = await import('../../features/inbox/inbox.watcher.js');
      const reader = startInboxReader(first.app.appContext, first.app.log);
      try {
        await until(
          () =>
            fs.existsSync(path.join(dir, 'done', 'while-down.fit.txt')) &&
            fs.existsSync(path.join(dir, 'done', 'left.fit.txt')),
        );
      } finally {
        await reader.stop();
      }
      expect(list(dir).filter((name) => !['done', 'failed'].includes(name))).toEqual([
        '.claim-00000000-999999999-00000000-elsewhere.fit',
      ]);
    } finally {
      await first.close();
      fs.rmSync(own, { recursive: true, force: true });
    }
  });
});

describe('numbered names', () => {
  it('puts the number before the first dot', () => {
    expect(numberedName('a.fit.gz', 2)).toBe('a (2).fit.gz');
    expect(numberedName('a', 3)).toBe('a (3)');
    expect(numberedName('a.fit', 1)).toBe('a.fit');
  });
});
