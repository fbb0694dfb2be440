/**
 * GPX: one file is one run. Distance sums the great-circle distances (R = 6,371 km) between
 * consecutive points of every segment, timed or not; time sums, per segment, the last timed
 * point's time minus the first's; the start is the first timed point. The track (CONTRACT.md
 * §13) takes every trkpt, with heart rate and cadence from Garmin's TrackPointExtension; the
 * time between two segments is a pause.
 */
import { asArray, child, parseXml, xmlNumber, xmlText, xmlTime } from './xml.js';
import { isPosition, TrackBuilder } from './track.js';
import { isOtherSport, notARun, skipFile, type ParsedFile, type TimeBudget, UNBOUNDED } from './types.js';

const ARRAYS = new Set(['trk', 'trkseg', 'trkpt']);

export function parseGpx(source: string, bytes: Uint8Array, budget: TimeBudget = UNBOUNDED): ParsedFile {
  const root = child(parseXml(bytes, ARRAYS, budget), 'gpx');
  if (!root) return skipFile(source, 'The file is not a GPX file.');
  const tracks = asArray(child(root, 'trk') as unknown[] | undefined);
  for (const track of tracks) {
    const type = xmlText(child(track, 'type'));
    if (type && isOtherSport(type)) return skipFile(source, notARun(type));
  }
  let seconds = 0;
  let start: number | null = null;
  let timed = 0;
  const builder = new TrackBuilder(budget);
  for (const track of tracks) {
    for (const segment of asArray(child(track, 'trkseg') as unknown[] | undefined)) {
      builder.segment();
      let first: number | null = null;
      let last: number | null = null;
      for (const point of asArray(child(segment, 'trkpt') as unknown[] | undefined)) {
        const lat = xmlNumber(child(point, '@lat'));
        const lon = xmlNumber(child(point, '@lon'));
        const ms = xmlTime(child(point, 'time'));
        const garmin = child(child(point, 'extensions'), 'TrackPointExtension');
        builder.add(
          ms,
          lat,
          lon,
          NaN,
          xmlNumber(child(point, 'ele')),
          xmlNumber(child(garmin, 'hr')),
          // Per leg: steps are twice as many.
          2 * xmlNumber(child(garmin, 'cad')),
        );
        if (!isPosition(lat, lon) || Number.isNaN(ms)) continue;
        timed += 1;
        first ??= ms;
        last = ms;
        start ??= ms;
      }
      if (first !== null && last !== null) seconds += (last - first) / 1000;
    }
  }
  if (timed < 2 || start === null) return skipFile(source, 'This file has no times.');
  const name = xmlText(child(tracks[0], 'name')) ?? xmlText(child(child(root, 'metadata'), 'name'));
  return {
    rows: [
      {
        source,
        run: {
          start: new Date(start),
          distanceKm: builder.travelledMetres / 1000,
          seconds,
          title: name ?? undefined,
          ...builder.build(),
        },
      },
    ],
  };
}
