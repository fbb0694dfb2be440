/**
 * A track as GPX 1.1 (CONTRACT.md §16 `GET /entry/{id}/track.gpx`): one `trkpt` per sample with a
 * position (`lat`, `lon`, `ele`, `time`, and heart rate and cadence in Garmin's
 * TrackPointExtension, cadence per leg as GPX readers expect: round(cad / 2)); each pause starts a
 * new `trkseg`, which is how GPX says "paused" (§13 reads it back the same way).
 *
 * Written as a generator of chunks of a few hundred points, so that a 200,000-sample track is
 * streamed without building one string or one object per sample.
 */
import { PauseTimeline } from './timing.js';
import type { Track } from './types.js';

export const GPX_NAMESPACE = 'http://www.topografix.com/GPX/1/1';
export const TRACK_POINT_EXTENSION_NAMESPACE = 'http://www.garmin.com/xmlschemas/TrackPointExtension/v1';

/** Points per chunk: large enough that writing a chunk costs more than handing it on. */
const POINTS_PER_CHUNK = 500;

export interface GpxOptions {
  /** The run's title, or null. */
  name: string | null;
  /** The instant of the track's first sample, in milliseconds since the epoch. */
  startMs: number;
}

// Characters XML 1.0 cannot carry at all (control characters other than tab and line breaks, lone
// surrogates, U+FFFE and U+FFFF): a runner's title may hold them, a GPX file must not.
const NOT_XML =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Text made safe for XML content and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(NOT_XML, '').replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** The GPX document of a track, in chunks. Samples without a position are left out. */
export function* gpxChunks(track: Track, options: GpxOptions): Generator<string> {
  const name = options.name ? `<name>${escapeXml(options.name)}</name>` : '';
  yield (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<gpx version="1.1" creator="Running Times" xmlns="${GPX_NAMESPACE}" ` +
    `xmlns:gpxtpx="${TRACK_POINT_EXTENSION_NAMESPACE}">\n` +
    `<metadata>${name}<time>${new Date(options.startMs).toISOString()}</time></metadata>\n` +
    `<trk>${name}<type>running</type>\n`
  );

  const { t, lat, lon, ele, hr, cad } = track;
  const pauses = new PauseTimeline(track.pauses);
  let segment = -1;
  let chunk = '';
  let pointsInChunk = 0;
  for (let i = 0; lat && lon && i < t.length; i++) {
    if (!Number.isFinite(lat[i]) || !Number.isFinite(lon[i])) continue;
    const atMs = Math.round(t[i]! * 1000);
    // A sample belongs to the part of the track after every pause that started before it.
    const part = pauses.pausesStartedBefore(atMs);
    if (part !== segment) {
      chunk += segment < 0 ? '<trkseg>\n' : '</trkseg>\n<trkseg>\n';
      segment = part;
    }
    chunk += trackPoint(lat[i]!, lon[i]!, ele?.[i], options.startMs + atMs, hr?.[i], cad?.[i]);
    if (++pointsInChunk === POINTS_PER_CHUNK) {
      yield chunk;
      chunk = '';
      pointsInChunk = 0;
    }
  }
  yield `${chunk}${segment < 0 ? '' : '</trkseg>\n'}</trk>\n</gpx>\n`;
}

/** A number at the precision a track keeps, never in exponent notation (which xsd:decimal refuses). */
function decimal(value: number, scale: number): string {
  return String(Math.round(value * scale) / scale);
}

function trackPoint(
  lat: number,
  lon: number,
  ele: number | undefined,
  atMs: number,
  hr: number | undefined,
  cad: number | undefined,
): string {
  let point = `<trkpt lat="${decimal(lat, 1e6)}" lon="${decimal(lon, 1e6)}">`;
  if (ele !== undefined && Number.isFinite(ele)) point += `<ele>${decimal(ele, 10)}</ele>`;
  point += `<time>${new Date(atMs).toISOString()}</time>`;
  const hasHr = hr !== undefined && hr > 0;
  const hasCad = cad !== undefined && Number.isFinite(cad) && cad >= 0;
  if (hasHr || hasCad) {
    point += '<extensions><gpxtpx:TrackPointExtension>';
    if (hasHr) point += `<gpxtpx:hr>${Math.round(hr)}</gpxtpx:hr>`;
    if (hasCad) point += `<gpxtpx:cad>${Math.round(cad / 2)}</gpxtpx:cad>`;
    point += '</gpxtpx:TrackPointExtension></extensions>';
  }
  return `${point}</trkpt>\n`;
}
