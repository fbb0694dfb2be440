/**
 * The duplicate test of an import (CONTRACT.md §9, §13), as a pure step: given a batch of the
 * spool's runs and the runner's stored runs on their dates, what becomes of each run. No
 * database, no I/O: imports.service.ts reads the stored runs and stores what is decided.
 */
import { sameRunNumbers } from '../../../core/imports.js';
import type { EntryValues } from '../entries/entries.service.js';
import { Brought, MAX_COMPARED } from './brought.js';
import type { StoredMatch } from './imports.repository.js';
import { metresOf, type RunLine } from './pass-one.js';

/** A run of the spool, as pass 1 wrote it (a RunLine), with where its line lies. */
export interface SpooledRun {
  /** Where its line lies in the spool. */
  at: number;
  source: string;
  /** The file (archive member) it came from: runs of one file are never duplicates of each other. */
  group: number;
  values: EntryValues;
  /** The name of the shoe the file names, or null. */
  shoe: string | null;
  /** Where its prepared track lies among the spool's blobs, or null. */
  track: [number, number] | null;
  /** What the row's reason says though the run is kept, or null. */
  note: string | null;
}

export function spooledRun(line: RunLine, at: number): SpooledRun {
  const [, source, group, date, distanceKm, seconds, title, notes, kind, effort, shoe, track, note] = line;
  return {
    at,
    source,
    group,
    values: {
      date,
      distanceKm,
      seconds,
      title: title ?? null,
      notes: notes ?? null,
      kind: kind ?? null,
      effort: effort ?? null,
    },
    shoe,
    track,
    note,
  };
}

/** What becomes of a run of the import. */
export type Outcome =
  /** Stored (or would be). */
  | { kind: 'new' }
  /** A duplicate of a stored run. */
  | { kind: 'duplicate'; of: { id: number; distanceM: number; seconds: number } }
  /** A duplicate of a run another file of the import brought: the source of its row. */
  | { kind: 'sibling'; at: number }
  /** §13: a stored run without a track that this run's file gives one. */
  | { kind: 'trackAdded'; id: number };

/**
 * §9's test over an import's runs, batch after batch, in spool order: each run against the
 * stored runs of its day (one to one, in order; of those it matches, one without a track first
 * when it brings a track) and against the runs of earlier files of the import.
 */
export class Matcher {
  private readonly brought: Brought | null;
  /** Stored runs already matched by a run of this import. */
  private readonly used = new Set<number>();

  /** `runs`: how many runs the spool holds; `groups`: how many files they came from. */
  constructor(runs: number, groups: number) {
    // Runs of other files are only compared when there are other files.
    this.brought = groups > 1 ? new Brought(runs) : null;
  }

  /** The outcome of each run of `batch`; `stored`: the runner's runs on the batch's dates, by date then id. */
  decide(batch: readonly SpooledRun[], stored: readonly StoredMatch[]): Outcome[] {
    const byDate = new Map<string, StoredMatch[]>();
    for (const run of stored) {
      if (this.used.has(run.id)) continue;
      const day = byDate.get(run.date);
      if (day) day.push(run);
      else byDate.set(run.date, [run]);
    }
    return batch.map((run): Outcome => {
      const { date, seconds } = run.values;
      const metres = metresOf(run.values.distanceKm);
      const day = byDate.get(date);
      let twinAt = -1;
      for (let i = 0; day && i < Math.min(day.length, MAX_COMPARED); i++) {
        if (!sameRunNumbers(day[i]!.distanceM, day[i]!.seconds, metres, seconds)) continue;
        if (twinAt < 0) twinAt = i;
        if (!day[i]!.hasTrack) {
          twinAt = i;
          break;
        }
      }
      const twin = twinAt >= 0 ? day!.splice(twinAt, 1)[0] : undefined;
      const siblingAt = twin || !this.brought ? -1 : this.brought.match(date, metres, seconds, run.group);
      this.brought?.add(date, metres, seconds, run.group, run.at);
      if (twin) {
        this.used.add(twin.id);
        if (run.track && !twin.hasTrack) return { kind: 'trackAdded', id: twin.id };
        return { kind: 'duplicate', of: { id: twin.id, distanceM: twin.distanceM, seconds: twin.seconds } };
      }
      return siblingAt >= 0 ? { kind: 'sibling', at: siblingAt } : { kind: 'new' };
    });
  }
}
