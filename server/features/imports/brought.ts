/**
 * The cross-file half of §9's duplicate test in an import (imports.service.ts): the runs that
 * earlier files of the same upload brought, compared by day without keeping the rows.
 */
import { sameRunNumbers } from '../../../core/imports.js';

/**
 * Runs of one day a row is compared with, at most, among those stored and among those other
 * files brought: a runner's day holds a handful; a hostile file of a million runs on one day
 * would otherwise make the test quadratic.
 */
export const MAX_COMPARED = 256;

/**
 * The runs the files of an import brought, by day, for §9's test between files. Rows come in
 * the order of their files, so the runs other files brought before a row are those of earlier
 * files: each day keeps its runs in that order, and a row is compared with them up to the first
 * run of its own file. Kept in typed arrays, 24 bytes a run (the answer reads the matched run's
 * source back from the spool), for at most importLimits.rows runs.
 */
export class Brought {
  private readonly metres: Int32Array;
  private readonly seconds: Int32Array;
  private readonly group: Int32Array;
  private readonly next: Int32Array;
  private readonly lineAt: Float64Array;
  private readonly first = new Map<string, number>();
  private readonly last = new Map<string, number>();
  private count = 0;

  constructor(capacity: number) {
    this.metres = new Int32Array(capacity);
    this.seconds = new Int32Array(capacity);
    this.group = new Int32Array(capacity);
    this.next = new Int32Array(capacity);
    this.lineAt = new Float64Array(capacity);
  }

  clear(): void {
    this.first.clear();
    this.last.clear();
    this.count = 0;
  }

  /** Where the first run of another file on `date` that matches lies in the spool, or -1. */
  match(date: string, metres: number, seconds: number, group: number): number {
    let compared = 0;
    for (let i = this.first.get(date) ?? -1; i >= 0 && compared < MAX_COMPARED; i = this.next[i]!) {
      if (this.group[i] === group) break;
      compared += 1;
      if (sameRunNumbers(this.metres[i]!, this.seconds[i]!, metres, seconds)) return this.lineAt[i]!;
    }
    return -1;
  }

  add(date: string, metres: number, seconds: number, group: number, lineAt: number): void {
    const i = this.count++;
    this.metres[i] = metres;
    this.seconds[i] = seconds;
    this.group[i] = group;
    this.lineAt[i] = lineAt;
    this.next[i] = -1;
    const tail = this.last.get(date);
    if (tail === undefined) this.first.set(date, i);
    else this.next[tail] = i;
    this.last.set(date, i);
  }
}
