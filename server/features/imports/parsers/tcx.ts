/**
 * TCX: each activity's Sport, Id (its start), the sums of its laps' DistanceMeters and
 * TotalTimeSeconds, and its track (CONTRACT.md §13): Trackpoints, Laps, and a pause between two
 * Track elements.
 */
import { asArray, child, parseXml, xmlNumber, xmlText, xmlTime } from './xml.js';
import { TrackBuilder } from './track.js';
import { notARun, skipFile, type ParsedFile, type ParsedRow, type TimeBudget, UNBOUNDED } from './types.js';

const ARRAYS = new Set(['Activity', 'Lap', 'Track', 'Trackpoint']);

export function parseTcx(source: string, bytes: Uint8Array, budget: TimeBudget = UNBOUNDED): ParsedFile {
  const root = child(parseXml(bytes, ARRAYS, budget), 'TrainingCenterDatabase');
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
    const builder = new TrackBuilder(budget);
    for (const lap of asArray(child(activity, 'Lap') as unknown[] | undefined)) {
      const lapMetres = Number(xmlText(child(lap, 'DistanceMeters')) ?? 0) || 0;
      const lapSeconds = Number(xmlText(child(lap, 'TotalTimeSeconds')) ?? 0) || 0;
      metres += lapMetres;
      seconds += lapSeconds;
      builder.lap(xmlTime(child(lap, '@StartTime')), lapMetres, lapSeconds);
      for (const track of asArray(child(lap, 'Track') as unknown[] | undefined)) {
        builder.segment();
        for (const point of asArray(child(track, 'Trackpoint') as unknown[] | undefined)) addTrackpoint(builder, point);
      }
    }
    return {
      source: where,
      run: {
        start,
        distanceKm: metres / 1000,
        seconds,
        notes: xmlText(child(activity, 'Notes')),
        ...builder.build(),
      },
    };
  });
  return { rows };
}

function addTrackpoint(builder: TrackBuilder, point: unknown): void {
  const position = child(point, 'Position');
  const cadence = xmlNumber(child(point, 'Cadence'));
  builder.add(
    xmlTime(child(point, 'Time')),
    xmlNumber(child(position, 'LatitudeDegrees')),
    xmlNumber(child(position, 'LongitudeDegrees')),
    xmlNumber(child(point, 'DistanceMeters')),
    xmlNumber(child(point, 'AltitudeMeters')),
    xmlNumber(child(child(point, 'HeartRateBpm'), 'Value')),
    // Both are per leg: steps are twice as many.
    2 * (Number.isNaN(cadence) ? xmlNumber(child(child(child(point, 'Extensions'), 'TPX'), 'RunCadence')) : cadence),
  );
}
