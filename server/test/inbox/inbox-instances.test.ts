/**
 * Several servers on one database reading the same INBOX_DIR (CONTRACT.md §20): each file is
 * imported once. Two app instances, 200 small files dropped at once: 200 runs, every file in
 * done/ once with its report, no claim left behind.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InboxEnvelopeSchema } from '../../../core/inbox.js';
import { buildApp } from '../../app.js';
import { INBOX_TIMING } from '../../config.js';
import { call, createTestApp, registerUser, type TestApp } from '../helpers.js';
import { fitActivity } from '../imports/fit-fixtures.js';
import { storedRunCount } from '../imports/fixtures.js';

const FAST = { ...INBOX_TIMING, stableMs: 300, scanMs: 100, listMs: 1000, keysMs: 200 };
const FILES = 200;

let t: TestApp;
let second: Awaited<ReturnType<typeof buildApp>>;
let root: string;
beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-instances-'));
  t = await createTestApp({ inboxDir: root, inboxTiming: FAST }, { sqliteFile: true });
  second = await buildApp({ ...t.config });
  await second.ready();
});
afterAll(async () => {
  await second.close();
  await t.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('two servers on one database', () => {
  it('import each of 200 files dropped at once exactly once', async () => {
    const runner = await registerUser(t.app);
    const res = await call(t.app, 'POST', '/api/v1/inbox', { token: runner.token });
    const dir = path.join(root, InboxEnvelopeSchema.parse(res.json()).inbox.folder!);
    for (let i = 0; i < FILES; i++) {
      const start = new Date(Date.UTC(2024, 0, 1 + i, 6, 0, 0));
      fs.writeFileSync(
        path.join(dir, `run-${i}.fit`),
        fitActivity({ start, metres: 5000 + i, timerSeconds: 1500 + i }),
      );
    }
    const done = path.join(dir, 'done');
    const end = Date.now() + 170_000;
    while (fs.readdirSync(done).filter((name) => name.endsWith('.txt')).length < FILES) {
      if (Date.now() > end) throw new Error(`only ${fs.readdirSync(done).length / 2} files were imported`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const names = fs.readdirSync(done);
    expect(names.length).toBe(FILES * 2);
    // Numbered names would mean a file was filed twice.
    expect(names.filter((name) => name.includes(' ('))).toEqual([]);
    for (const name of names.filter((n) => n.endsWith('.txt'))) {
      expect(fs.readFileSync(path.join(done, name), 'utf8')).toMatch(/^run-\d+\.fit\tcreated\t\d+\t\n$/);
    }
    expect(fs.readdirSync(dir).sort()).toEqual(['done', 'failed']);
    expect(await storedRunCount(t.app, runner.token)).toBe(FILES);
    // Both servers took part (each claims by renaming; the loser finds the file gone).
    expect(fs.readdirSync(path.join(dir, 'failed'))).toEqual([]);
  }, 200_000);
});
