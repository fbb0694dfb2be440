/**
 * The run just added on the New Entry screen, for the list it was opened from: that list shows
 * it (or clears a filter that would hide it) once, when the runner comes back.
 */
import type { Entry } from '../../../core/schemas.js';

let added: Pick<Entry, 'id' | 'date'> | null = null;

export function rememberAddedRun(entry: Pick<Entry, 'id' | 'date'>): void {
  added = { id: entry.id, date: entry.date };
}

/** The run added since the list was last shown, once. */
export function takeAddedRun(): Pick<Entry, 'id' | 'date'> | null {
  const run = added;
  added = null;
  return run;
}
