/** TCX: each activity's Sport, Id (its start), and the sums of its laps' DistanceMeters and TotalTimeSeconds. */
import { asArray, child, parseXml, xmlText } from './xml.js';
import { notARun, skipFile, type ParsedFile, type ParsedRow } from './types.js';

const ARRAYS = new Set(['Activity', 'Lap']);

export function parseTcx(source: string, bytes: Uint8Array): ParsedFile {
  const root = child(parseXml(bytes, ARRAYS), 'TrainingCenterDatabase');
  if (!root) return skipFile(source, 'The file is not a TCX file.');
  const activities = asArray(child(child(root, 'Activities'), 'Activity') as unknown[] | undefined);
  if (activities.length === 0) return skipFile(source, 'The TCX file holds no activity.');
  const rows = activities.map((activity, index): ParsedRow => {
    const where = activities.length > 1 ? `${source}#${index + 1}` : source;
    const sport = xmlText(child(activity, '@Sport')) ?? 'unknown';
    if (sport.toLowerCase() !== 'running') return { source: where, skip: notARun(sport) };
    const id = xmlText(child(activity, 'Id'));
    const start = id ? new Date(id) : null;
    if (!start || Number.isNaN(start.getTime()))
      return { source: where, skip: 'The activity has no valid Id (start).' };
    let metres = 0;
    let seconds = 0;
    for (const lap of asArray(child(activity, 'Lap') as unknown[] | undefined)) {
      metres += Number(xmlText(child(lap, 'DistanceMeters')) ?? 0) || 0;
      seconds += Number(xmlText(child(lap, 'TotalTimeSeconds')) ?? 0) || 0;
    }
    return {
      source: where,
      run: { start, distanceKm: metres / 1000, seconds, notes: xmlText(child(activity, 'Notes')) },
    };
  });
  return { rows };
}
