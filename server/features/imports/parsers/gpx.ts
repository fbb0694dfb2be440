/**
 * GPX: one file is one run. Distance sums the great-circle distances (R = 6,371 km) between
 * consecutive points of every segment, timed or not; time sums, per segment, the last timed
 * point's time minus the first's; the start is the first timed point.
 */
import { asArray, child, parseXml, xmlText } from './xml.js';
import { isOtherSport, notARun, skipFile, type ParsedFile } from './types.js';

const EARTH_RADIUS_M = 6_371_000;
const ARRAYS = new Set(['trk', 'trkseg', 'trkpt']);

export function haversineMetres(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

export function parseGpx(source: string, bytes: Uint8Array): ParsedFile {
  const root = child(parseXml(bytes, ARRAYS), 'gpx');
  if (!root) return skipFile(source, 'The file is not a GPX file.');
  const tracks = asArray(child(root, 'trk') as unknown[] | undefined);
  for (const track of tracks) {
    const type = xmlText(child(track, 'type'));
    if (type && isOtherSport(type)) return skipFile(source, notARun(type));
  }
  let metres = 0;
  let seconds = 0;
  let start: number | null = null;
  let timed = 0;
  for (const track of tracks) {
    for (const segment of asArray(child(track, 'trkseg') as unknown[] | undefined)) {
      let previous: [number, number] | null = null;
      let first: number | null = null;
      let last: number | null = null;
      for (const point of asArray(child(segment, 'trkpt') as unknown[] | undefined)) {
        const lat = Number(child(point, '@lat'));
        const lon = Number(child(point, '@lon'));
        if (!Number.isFinite(lat) || !Number.isFinite(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180) continue;
        if (previous) metres += haversineMetres(previous[0], previous[1], lat, lon);
        previous = [lat, lon];
        const when = xmlText(child(point, 'time'));
        const ms = when ? Date.parse(when) : NaN;
        if (Number.isNaN(ms)) continue;
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
    rows: [{ source, run: { start: new Date(start), distanceKm: metres / 1000, seconds, title: name ?? undefined } }],
  };
}
