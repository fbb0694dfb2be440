/** What the import parsers made of a file, read the way the parser tests read it. */
import type { Track } from '../../../core/tracks/types.js';
import type { Candidate, ParsedFile, ParsedRow } from '../../features/imports/parsers/types.js';

export const bytesOf = (text: string) => new TextEncoder().encode(text);

export function runOf(row: ParsedRow | undefined): Candidate {
  if (!row || !('run' in row)) throw new Error(`not a run: ${JSON.stringify(row)}`);
  return row.run;
}
export function trackOf(file: ParsedFile, index = 0): Track {
  const track = runOf(file.rows[index]).track;
  if (!track) throw new Error('no track');
  return track;
}

/** §9's great-circle leg of 1e-4 degrees along a meridian: R x the angle in radians. */
export const LEG = (6_371_000 * 1e-4 * Math.PI) / 180;
export const cm = (metres: number) => Math.round(metres * 100) / 100;
