/**
 * This server's own JSON export: its entries, and the shoes and goals that come with them.
 * Read as a stream (json-stream.ts): one entry at a time, never the document at once. The
 * export writes `format`, the shoes and the goals before its entries, which is what a file
 * needs to be read here (a file without `format` before its first entry is not an export).
 */
import { EXPORT_FORMAT_NAME } from '../../../../core/imports.js';
import { jsonPieces } from './json-stream.js';
import { looseDuration, type Extras, type ParsedRow } from './types.js';

const records = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value) ? value.filter((v): v is Record<string, unknown> => !!v && typeof v === 'object') : [];

const NOT_OURS = 'This JSON file is not an export of this server.';
const ENTRIES = new Set(['entries']);

/**
 * The rows of a JSON export as it is read; `extras` are known once the rows are read to their end,
 * and so are `names`: the files its entries name (the zip export's `"file": "activities/<id>.<ext>"`,
 * which its archive resolves: parsers/files.ts).
 */
export function parseJson(
  source: string,
  chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
): { json: AsyncGenerator<ParsedRow>; extras: () => Extras | undefined; names: Set<string> } {
  const extras: Extras = { shoes: [], goals: [] };
  const names = new Set<string>();
  let complete = false;
  async function* rows(): AsyncGenerator<ParsedRow> {
    let format: unknown;
    let entries = false;
    let index = 0;
    const found = new Set<string>();
    const shoeNames = new Map<unknown, string>();
    for await (const piece of jsonPieces(chunks, ENTRIES)) {
      if ('value' in piece) {
        if (piece.key === 'format') format = piece.value;
        else if (piece.key === 'shoes') {
          extras.shoes = records(piece.value);
          for (const shoe of extras.shoes) if (typeof shoe.name === 'string') shoeNames.set(shoe.id, shoe.name);
        } else if (piece.key === 'goals') extras.goals = records(piece.value);
        continue;
      }
      if ('array' in piece) {
        entries = true;
        continue;
      }
      if (format !== EXPORT_FORMAT_NAME) {
        yield { source, skip: NOT_OURS };
        return;
      }
      index += 1;
      const item = piece.element;
      const where = `${source}#${index}`;
      if (!item || typeof item !== 'object') {
        yield { source: where, skip: 'The entry is not an object.' };
        continue;
      }
      const entry = item as Record<string, unknown>;
      const shoe = typeof entry.shoe === 'string' ? entry.shoe : (shoeNames.get(entry.shoe_id) ?? null);
      // Each field as the file has it: validation says what is wrong with a value of another type.
      const run = {
        ownExport: true,
        date: typeof entry.date === 'string' ? entry.date : '',
        distanceKm: typeof entry.distance === 'number' ? entry.distance : NaN,
        seconds: (typeof entry.time === 'string' ? looseDuration(entry.time) : null) ?? NaN,
        title: entry.title ?? null,
        notes: entry.notes ?? null,
        kind: entry.kind ?? null,
        effort: entry.effort ?? null,
        shoe,
      };
      const named = typeof entry.file === 'string' ? entry.file.replace(/^\.?\//, '') : '';
      if (named === '') {
        yield { source: where, run };
        continue;
      }
      found.add(named);
      yield { source: where, named, partial: run };
    }
    if (format !== EXPORT_FORMAT_NAME || !entries) {
      yield { source, skip: NOT_OURS };
      return;
    }
    complete = true;
    for (const name of found) names.add(name);
  }
  return { json: rows(), extras: () => (complete ? extras : undefined), names };
}
