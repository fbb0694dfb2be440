/**
 * Released steps are frozen (as Flyway checks a migration's checksum): each file's SHA-256 is
 * recorded in migrations/checksums.json, and an edit of a recorded step fails here, naming it.
 * A new step is added to STEPS and to the manifest in the same change; a step imports nothing
 * of the project, so that what it does can never move with the code around it.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { STEPS } from './migrate.js';

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
const MANIFEST = path.join(DIR, 'checksums.json');

/** The checksum of a step's file: its bytes with line endings as committed (LF). */
export function checksumOf(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file, 'utf8').replace(/\r\n/g, '\n')).digest('hex');
}

const stepFiles = () =>
  fs
    .readdirSync(DIR)
    .filter((f) => f.endsWith('.ts'))
    .sort();

describe('migration steps', () => {
  it('are the files of migrations/, each listed once, in order', () => {
    expect(Object.keys(STEPS)).toEqual(stepFiles().map((f) => f.replace(/\.ts$/, '')));
    for (const name of Object.keys(STEPS)) expect(name).toMatch(/^\d{3}-[a-z0-9-]+$/);
  });

  it('import nothing of the project', () => {
    for (const file of stepFiles()) {
      const text = fs.readFileSync(path.join(DIR, file), 'utf8');
      const imports = [...text.matchAll(/^\s*import\b[^'"]*['"]([^'"]+)['"]/gm)].map((m) => m[1]);
      expect(
        imports.filter((from) => from !== 'kysely'),
        file,
      ).toEqual([]);
    }
  });

  it('are unchanged since they were released (checksums.json)', () => {
    const manifest = JSON.parse(fs.readFileSync(MANIFEST, 'utf8')) as Record<string, string>;
    for (const file of stepFiles()) {
      const name = file.replace(/\.ts$/, '');
      expect(
        manifest[name],
        `Step ${name} has no checksum in migrations/checksums.json: add it with the step.`,
      ).toBeDefined();
      expect(
        checksumOf(path.join(DIR, file)),
        `Step ${name} was edited after its release: restore it, and change the schema in a new step.`,
      ).toBe(manifest[name]);
    }
    expect(Object.keys(manifest).sort()).toEqual(stepFiles().map((f) => f.replace(/\.ts$/, '')));
  });
});
