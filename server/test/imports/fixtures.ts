/**
 * Files as devices and services write them, generated for the import tests and the bench: GPX
 * and TCX in the shape Garmin and Strava export, a Strava bulk-export zip with its quirks, and
 * the requests that send them. FIT files are in fit-fixtures.ts, hostile ones in
 * hostile-fixtures.ts.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { gzipSync, strToU8, zipSync, type Zippable } from 'fflate';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { ImportEnvelopeSchema, type ImportResult } from '../../../core/imports.js';
import { EntriesEnvelopeSchema, type Entry } from '../../../core/schemas.js';

export interface Point {
  /** Degrees; a string is written as it is (a hostile file's "abc"). */
  lat: number | string;
  lon: number | string;
  /** Seconds after the start, or null for a point without time. */
  t: number | null;
  /** Metres: 52.4 unless told, null for none. */
  ele?: number | null;
  /** 142 unless told, null for none. */
  hr?: number | null;
  /** Per leg, as devices write it; none unless told. */
  cad?: number | null;
}

const xmlEscape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const degrees = (value: number | string) => (typeof value === 'number' ? value.toFixed(7) : value);
/** An instant as devices write it: whole seconds without a fraction. */
const isoAt = (start: Date, seconds: number) =>
  new Date(start.getTime() + seconds * 1000).toISOString().replace('.000Z', 'Z');

/** A GPX file as a Garmin device or Strava writes it, with Garmin's TrackPointExtension under `prefix`. */
export function gpxFile(opts: {
  start: Date;
  name?: string;
  type?: string;
  segments: Point[][];
  prefix?: string;
}): string {
  const ns = opts.prefix ?? 'gpxtpx';
  const trkpt = (p: Point) => {
    const ele = p.ele === undefined ? 52.4 : p.ele;
    const hr = p.hr === undefined ? 142 : p.hr;
    const cad = p.cad ?? null;
    const extension =
      hr === null && cad === null
        ? ''
        : `     <extensions>\n      <${ns}:TrackPointExtension>\n` +
          (hr === null ? '' : `       <${ns}:hr>${hr}</${ns}:hr>\n`) +
          (cad === null ? '' : `       <${ns}:cad>${cad}</${ns}:cad>\n`) +
          `      </${ns}:TrackPointExtension>\n     </extensions>\n`;
    return (
      `    <trkpt lat="${degrees(p.lat)}" lon="${degrees(p.lon)}">\n` +
      (ele === null ? '' : `     <ele>${ele}</ele>\n`) +
      (p.t === null ? '' : `     <time>${isoAt(opts.start, p.t)}</time>\n`) +
      `${extension}    </trkpt>`
    );
  };
  const segments = opts.segments
    .map((points) => `   <trkseg>\n${points.map(trkpt).join('\n')}\n   </trkseg>`)
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<gpx creator="StravaGPX Android" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd" version="1.1" xmlns="http://www.topografix.com/GPX/1/1" xmlns:${ns}="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
 <metadata>
  <time>${isoAt(opts.start, 0)}</time>
 </metadata>
 <trk>
  <name>${xmlEscape(opts.name ?? 'Morning Run')}</name>
${opts.type === undefined ? '' : `  <type>${opts.type}</type>\n`}${segments}
 </trk>
</gpx>
`;
}

/** Points along a meridian: consecutive great-circle distances are R x the latitude step (in radians). */
export function meridianPoints(count: number, stepDeg: number, secondsApart: number, lon = 2.35): Point[] {
  return Array.from({ length: count }, (_, i) => ({ lat: 48.8 + i * stepDeg, lon, t: i * secondsApart }));
}

/** A TCX Trackpoint; absent values are not written. */
export interface TcxPoint {
  /** Seconds after the activity's start, or null for a point without time. */
  t: number | null;
  lat?: number;
  lon?: number;
  altitude?: number;
  distance?: number;
  hr?: number;
  /** Per leg, as devices write it. */
  cadence?: number;
}

export interface TcxLap {
  metres: number;
  seconds: number;
  /** Seconds after the activity's start; where the previous lap's time ended unless told. */
  start?: number;
  /** Its Track elements; one holding a point at the lap's start unless told. */
  tracks?: TcxPoint[][];
}

export interface TcxActivity {
  start: Date;
  sport?: string;
  laps: TcxLap[];
  notes?: string;
  /** Where the cadence goes: Garmin's RunCadence in the ns3:TPX extension (the default), or the Cadence element. */
  cadence?: 'extension' | 'element';
}

function tcxTrackpoint(activity: TcxActivity, p: TcxPoint): string {
  const lines = ['      <Trackpoint>'];
  const put = (line: string) => lines.push(`       ${line}`);
  if (p.t !== null) put(`<Time>${new Date(activity.start.getTime() + p.t * 1000).toISOString()}</Time>`);
  if (p.lat !== undefined && p.lon !== undefined) {
    put(
      `<Position><LatitudeDegrees>${p.lat}</LatitudeDegrees><LongitudeDegrees>${p.lon}</LongitudeDegrees></Position>`,
    );
  }
  if (p.altitude !== undefined) put(`<AltitudeMeters>${p.altitude}</AltitudeMeters>`);
  if (p.distance !== undefined) put(`<DistanceMeters>${p.distance}</DistanceMeters>`);
  if (p.hr !== undefined) put(`<HeartRateBpm><Value>${p.hr}</Value></HeartRateBpm>`);
  if (p.cadence !== undefined && activity.cadence === 'element') put(`<Cadence>${p.cadence}</Cadence>`);
  if (p.cadence !== undefined && activity.cadence !== 'element') {
    put(
      `<Extensions><ns3:TPX><ns3:Speed>3.1</ns3:Speed><ns3:RunCadence>${p.cadence}</ns3:RunCadence></ns3:TPX></Extensions>`,
    );
  }
  lines.push('      </Trackpoint>');
  return lines.join('\n');
}

function tcxActivity(activity: TcxActivity): string {
  let at = 0;
  const laps = activity.laps
    .map((lap) => {
      const lapStart = lap.start ?? at;
      at = lapStart + lap.seconds;
      const startTime = new Date(activity.start.getTime() + lapStart * 1000).toISOString();
      const tracks = (lap.tracks ?? [[{ t: lapStart, distance: 0 }]])
        .map((points) => `     <Track>\n${points.map((p) => tcxTrackpoint(activity, p)).join('\n')}\n     </Track>`)
        .join('\n');
      return `    <Lap StartTime="${startTime}">
     <TotalTimeSeconds>${lap.seconds}</TotalTimeSeconds>
     <DistanceMeters>${lap.metres}</DistanceMeters>
     <MaximumSpeed>4.2</MaximumSpeed>
     <Calories>120</Calories>
     <Intensity>Active</Intensity>
     <TriggerMethod>Manual</TriggerMethod>
${tracks}
    </Lap>`;
    })
    .join('\n');
  return `  <Activity Sport="${activity.sport ?? 'Running'}">
   <Id>${activity.start.toISOString()}</Id>
${laps}
${activity.notes === undefined ? '' : `   <Notes>${activity.notes}</Notes>\n`}   <Creator xsi:type="Device_t"><Name>Forerunner 255</Name></Creator>
  </Activity>`;
}

/** A TCX file as Garmin Connect exports it, with one activity or several. */
export function tcxFile(activities: TcxActivity | TcxActivity[]): string {
  const all = Array.isArray(activities) ? activities : [activities];
  return `<?xml version="1.0" encoding="UTF-8"?>
<TrainingCenterDatabase xsi:schemaLocation="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2 http://www.garmin.com/xmlschemas/TrainingCenterDatabasev2.xsd" xmlns:ns5="http://www.garmin.com/xmlschemas/ActivityGoals/v1" xmlns:ns3="http://www.garmin.com/xmlschemas/ActivityExtension/v2" xmlns:ns2="http://www.garmin.com/xmlschemas/UserProfile/v2" xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
 <Activities>
${all.map(tcxActivity).join('\n')}
 </Activities>
</TrainingCenterDatabase>
`;
}

/** RFC 4180 field. */
export const csvCell = (value: string | number) => {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** Strava's Activity Date: "Mar 12, 2024, 6:00:00 PM", in UTC. */
export function stravaDate(instant: Date): string {
  const month = instant.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' });
  const h = instant.getUTCHours();
  const hour12 = h % 12 === 0 ? 12 : h % 12;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${month} ${instant.getUTCDate()}, ${instant.getUTCFullYear()}, ${hour12}:${pad(instant.getUTCMinutes())}:${pad(instant.getUTCSeconds())} ${h < 12 ? 'AM' : 'PM'}`;
}

export interface StravaRow {
  id: number;
  start: Date;
  name: string;
  type: string;
  description?: string;
  /** Precise metres (the second Distance column); null leaves the numbers blank. */
  metres: number | null;
  moving: number | null;
  elapsed: number;
  filename?: string;
}

/** The real header of Strava's activities.csv (abridged after the columns that matter), duplicates included. */
export const STRAVA_HEADER = [
  'Activity ID',
  'Activity Date',
  'Activity Name',
  'Activity Type',
  'Activity Description',
  'Elapsed Time',
  'Distance',
  'Max Heart Rate',
  'Relative Effort',
  'Commute',
  'Activity Private Note',
  'Activity Gear',
  'Filename',
  'Athlete Weight',
  'Bike Weight',
  'Elapsed Time',
  'Moving Time',
  'Distance',
  'Max Speed',
  'Average Speed',
  'Elevation Gain',
  'Elevation Loss',
];

export function stravaCsv(rows: StravaRow[]): string {
  const lines = [STRAVA_HEADER.join(',')];
  for (const r of rows) {
    const km = r.metres === null ? '' : (r.metres / 1000).toFixed(2);
    lines.push(
      [
        r.id,
        csvCell(stravaDate(r.start)),
        csvCell(r.name),
        r.type,
        csvCell(r.description ?? ''),
        r.elapsed,
        km,
        '172.0',
        '45',
        'false',
        '',
        'Pegasus 40',
        r.filename ?? '',
        '70.0',
        '',
        r.metres === null ? '' : `${r.elapsed}.0`,
        r.moving === null ? '' : `${r.moving}.0`,
        r.metres === null ? '' : r.metres.toFixed(1),
        '4.1',
        '3.3',
        '12.0',
        '11.0',
      ].join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}

export function zip(files: Record<string, Uint8Array | string>): Uint8Array {
  const input: Zippable = {};
  for (const [name, content] of Object.entries(files)) {
    input[name] = typeof content === 'string' ? strToU8(content) : content;
  }
  return zipSync(input, { level: 6 });
}

export const gz = (content: Uint8Array | string) => gzipSync(typeof content === 'string' ? strToU8(content) : content);

export function concat(parts: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return all;
}

export interface Part {
  name: string;
  content: Uint8Array | string;
  /** A plain form field instead of a file. */
  field?: boolean;
}

/** A multipart/form-data body. */
export function multipartBody(parts: Part[]): { payload: Buffer; contentType: string } {
  const boundary = `----runningtimes${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = part.field
      ? `form-data; name="${part.name}"`
      : `form-data; name="file"; filename="${part.name}"`;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.field ? '' : 'Content-Type: application/octet-stream\r\n'}\r\n`,
      ),
    );
    chunks.push(Buffer.from(part.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** POST /api/v1/import with files (and fields). */
export function importFiles(
  app: FastifyInstance,
  token: string,
  files: Part[],
  fields: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const parts = [...Object.entries(fields).map(([name, content]) => ({ name, content, field: true })), ...files];
  const { payload, contentType } = multipartBody(parts);
  return app.inject({
    method: 'POST',
    url: '/api/v1/import',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType, accept: 'application/json' },
    payload,
  });
}

/** POST /api/v1/import that must succeed (200 for a dry run, 201 for an import): its counts and rows. */
export async function importResult(
  app: FastifyInstance,
  token: string,
  files: Part[],
  fields: Record<string, string> = {},
): Promise<ImportResult> {
  const res = await importFiles(app, token, files, fields);
  const expected = fields.dry_run ? 200 : 201;
  if (res.statusCode !== expected) {
    throw new Error(`POST /import answered ${res.statusCode}, not ${expected}: ${res.body.slice(0, 500)}`);
  }
  return ImportEnvelopeSchema.parse(res.json()).import;
}

/** How many runs the runner of `token` has stored. */
export async function storedRunCount(app: FastifyInstance, token: string): Promise<number> {
  const res = await app.inject({ method: 'GET', url: '/api/v1/entry', headers: { authorization: `Bearer ${token}` } });
  return res.json<{ entries: { total: number } }>().entries.total;
}

/** The runs of the runner of `token` (at most 100), as GET /api/v1/entry lists them. */
export async function storedRuns(app: FastifyInstance, token: string): Promise<Entry[]> {
  const res = await app.inject({
    method: 'GET',
    url: '/api/v1/entry?per_page=100',
    headers: { authorization: `Bearer ${token}` },
  });
  if (res.statusCode !== 200) throw new Error(`GET /entry answered ${res.statusCode}: ${res.body.slice(0, 500)}`);
  return EntriesEnvelopeSchema.parse(res.json()).entries.data;
}

/**
 * A test-only trigger on the database at `databaseUrl`: while on, the database itself refuses to
 * store a run titled `title`, as a failing disk or constraint would. `name` names the trigger.
 */
export async function refuseRunsTitled(databaseUrl: string, name: string, title: string, on: boolean): Promise<void> {
  if (databaseUrl.startsWith('sqlite:')) {
    const db = new Database(databaseUrl.slice('sqlite:'.length));
    try {
      db.exec(
        on
          ? `CREATE TRIGGER ${name} BEFORE INSERT ON entries WHEN NEW.title = '${title}' BEGIN SELECT RAISE(ABORT, 'refused'); END`
          : `DROP TRIGGER ${name}`,
      );
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      on
        ? `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
           BEGIN IF NEW.title = '${title}' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$;
           CREATE TRIGGER ${name} BEFORE INSERT ON entries FOR EACH ROW EXECUTE FUNCTION ${name}()`
        : `DROP TRIGGER ${name} ON entries; DROP FUNCTION ${name}()`,
    );
  } finally {
    await client.end();
  }
}
