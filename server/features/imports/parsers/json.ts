/** This server's own JSON export: its entries, and the shoes and goals that come with them. */
import { EXPORT_FORMAT_NAME } from '../../../../core/imports.js';
import { looseDuration, skipFile, Unreadable, type Extras, type ParsedFile, type ParsedRow } from './types.js';

const records = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value) ? value.filter((v): v is Record<string, unknown> => !!v && typeof v === 'object') : [];

export function parseJson(source: string, bytes: Uint8Array): ParsedFile {
  let document: unknown;
  try {
    document = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new Unreadable('The JSON file is damaged or truncated.');
  }
  const root = document as Record<string, unknown> | null;
  if (!root || typeof root !== 'object' || root.format !== EXPORT_FORMAT_NAME || !Array.isArray(root.entries)) {
    return skipFile(source, 'This JSON file is not an export of this server.');
  }
  const shoeNames = new Map<unknown, string>();
  for (const shoe of records(root.shoes)) if (typeof shoe.name === 'string') shoeNames.set(shoe.id, shoe.name);
  const rows = (root.entries as unknown[]).map((item, index): ParsedRow => {
    const where = `${source}#${index + 1}`;
    if (!item || typeof item !== 'object') return { source: where, skip: 'The entry is not an object.' };
    const entry = item as Record<string, unknown>;
    const shoe = typeof entry.shoe === 'string' ? entry.shoe : (shoeNames.get(entry.shoe_id) ?? null);
    return {
      source: where,
      run: {
        date: typeof entry.date === 'string' ? entry.date : '',
        distanceKm: typeof entry.distance === 'number' ? entry.distance : NaN,
        seconds: (typeof entry.time === 'string' ? looseDuration(entry.time) : null) ?? NaN,
        title: (entry.title as string | null | undefined) ?? null,
        notes: (entry.notes as string | null | undefined) ?? null,
        kind: entry.kind ?? null,
        effort: entry.effort ?? null,
        shoe,
      },
    };
  });
  const extras: Extras = { shoes: records(root.shoes), goals: records(root.goals) };
  return { rows, extras };
}
