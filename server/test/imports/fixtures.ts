/**
 * Files as devices and services write them, generated for the import tests and the bench:
 * FIT activities written with Garmin's own encoder, GPX and TCX in the shape Garmin and
 * Strava export, a Strava bulk-export zip with its quirks, and hostile files.
 */
import zlib from 'node:zlib';
import { Encoder, Profile } from '@garmin/fitsdk';
import Database from 'better-sqlite3';
import pg from 'pg';
import { gzipSync, strToU8, zipSync, type Zippable } from 'fflate';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { ImportEnvelopeSchema, type ImportResult } from '../../../core/imports.js';

/** The message numbers used here (the profile types them as a plain record). */
const MESG = {
  FILE_ID: Profile.MesgNum.FILE_ID!,
  EVENT: Profile.MesgNum.EVENT!,
  RECORD: Profile.MesgNum.RECORD!,
  LAP: Profile.MesgNum.LAP!,
  SESSION: Profile.MesgNum.SESSION!,
  ACTIVITY: Profile.MesgNum.ACTIVITY!,
};

/** Writes one message (the SDK's typings know each message's fields only by number). */
const put = (encoder: Encoder, num: number, mesg: Record<string, unknown>) => encoder.onMesg(num, mesg as never);

export interface FitRun {
  start: Date;
  metres: number;
  timerSeconds: number;
  sport?: string;
}

/** A FIT activity file: file id, a few records, one lap, one session and the activity. */
export function fitActivity(run: FitRun): Uint8Array {
  const sport = run.sport ?? 'running';
  const end = new Date(run.start.getTime() + (run.timerSeconds + 60) * 1000);
  const encoder = new Encoder();
  put(encoder, MESG.FILE_ID, {
    manufacturer: 'garmin',
    product: 3113,
    serialNumber: 3_912_345_678,
    timeCreated: run.start,
    type: 'activity',
  });
  put(encoder, MESG.EVENT, { timestamp: run.start, event: 'timer', eventType: 'start' });
  for (let i = 0; i <= 4; i++) {
    put(encoder, MESG.RECORD, {
      timestamp: new Date(run.start.getTime() + (i * run.timerSeconds * 1000) / 4),
      distance: (i * run.metres) / 4,
      heartRate: 140 + i,
    });
  }
  put(encoder, MESG.EVENT, { timestamp: end, event: 'timer', eventType: 'stopAll' });
  const totals = {
    timestamp: end,
    startTime: run.start,
    totalElapsedTime: run.timerSeconds + 60,
    totalTimerTime: run.timerSeconds,
    totalDistance: run.metres,
    sport,
    subSport: 'generic',
  };
  put(encoder, MESG.LAP, { ...totals, messageIndex: 0, event: 'lap', eventType: 'stop' });
  put(encoder, MESG.SESSION, { ...totals, messageIndex: 0, firstLapIndex: 0, numLaps: 1 });
  put(encoder, MESG.ACTIVITY, {
    timestamp: end,
    totalTimerTime: run.timerSeconds,
    numSessions: 1,
    type: 'manual',
    event: 'activity',
    eventType: 'stop',
  });
  return encoder.close();
}

export interface Point {
  lat: number;
  lon: number;
  /** Seconds after the start, or null for a point without time. */
  t: number | null;
}

const xmlEscape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A GPX file as a Garmin device or Strava writes it. */
export function gpxFile(opts: { start: Date; name?: string; type?: string; segments: Point[][] }): string {
  const iso = (t: number) => new Date(opts.start.getTime() + t * 1000).toISOString().replace('.000Z', 'Z');
  const segments = opts.segments
    .map(
      (points) =>
        `   <trkseg>\n${points
          .map(
            (p) =>
              `    <trkpt lat="${p.lat.toFixed(7)}" lon="${p.lon.toFixed(7)}">\n     <ele>52.4</ele>\n` +
              (p.t === null ? '' : `     <time>${iso(p.t)}</time>\n`) +
              `     <extensions>\n      <gpxtpx:TrackPointExtension>\n       <gpxtpx:hr>142</gpxtpx:hr>\n      </gpxtpx:TrackPointExtension>\n     </extensions>\n    </trkpt>`,
          )
          .join('\n')}\n   </trkseg>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<gpx creator="StravaGPX Android" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd" version="1.1" xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">
 <metadata>
  <time>${iso(0)}</time>
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

export interface TcxLap {
  metres: number;
  seconds: number;
}

/** A TCX file as Garmin Connect exports it. */
export function tcxFile(opts: { start: Date; sport?: string; laps: TcxLap[]; notes?: string }): string {
  let at = opts.start.getTime();
  const laps = opts.laps
    .map((lap) => {
      const startTime = new Date(at).toISOString();
      at += lap.seconds * 1000;
      return `    <Lap StartTime="${startTime}">
     <TotalTimeSeconds>${lap.seconds}</TotalTimeSeconds>
     <DistanceMeters>${lap.metres}</DistanceMeters>
     <MaximumSpeed>4.2</MaximumSpeed>
     <Calories>120</Calories>
     <Intensity>Active</Intensity>
     <TriggerMethod>Manual</TriggerMethod>
     <Track>
      <Trackpoint><Time>${startTime}</Time><DistanceMeters>0.0</DistanceMeters></Trackpoint>
     </Track>
    </Lap>`;
    })
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<TrainingCenterDatabase xsi:schemaLocation="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2 http://www.garmin.com/xmlschemas/TrainingCenterDatabasev2.xsd" xmlns:ns5="http://www.garmin.com/xmlschemas/ActivityGoals/v1" xmlns:ns3="http://www.garmin.com/xmlschemas/ActivityExtension/v2" xmlns:ns2="http://www.garmin.com/xmlschemas/UserProfile/v2" xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
 <Activities>
  <Activity Sport="${opts.sport ?? 'Running'}">
   <Id>${opts.start.toISOString()}</Id>
${laps}
${opts.notes === undefined ? '' : `   <Notes>${opts.notes}</Notes>\n`}   <Creator xsi:type="Device_t"><Name>Forerunner 255</Name></Creator>
  </Activity>
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

/** A gzip file of `mib` MiB of zeros (about 1 KiB per MiB). */
export const gzipBomb = (mib: number): Uint8Array => zlib.gzipSync(Buffer.alloc(mib * 1024 * 1024), { level: 9 });

/** A zip whose one entry is `mib` MiB of zeros, honestly declared (sizes up to 4 GiB - 1). */
export function zipBomb(mib: number, name = 'activities/bomb.gpx'): Uint8Array {
  const data = zlib.deflateRawSync(Buffer.alloc(mib * 1024 * 1024), { level: 9 });
  return storedZip([{ name, data, method: 8, size: Math.min(mib * 1024 * 1024, 0xffffffff) }]);
}

interface RawEntry {
  name: string;
  data: Uint8Array;
  method: number;
  /** The uncompressed size the archive declares. */
  size: number;
}

/** A zip written by hand, so that tests can make it lie about its sizes. */
export function storedZip(entries: RawEntry[]): Uint8Array {
  const enc = new TextEncoder();
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = enc.encode(e.name);
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true);
    local.setUint16(8, e.method, true);
    local.setUint32(18, e.data.length, true);
    local.setUint32(22, e.size, true);
    local.setUint16(26, name.length, true);
    const central = new DataView(new ArrayBuffer(46));
    central.setUint32(0, 0x02014b50, true);
    central.setUint16(4, 20, true);
    central.setUint16(6, 20, true);
    central.setUint16(10, e.method, true);
    central.setUint32(20, e.data.length, true);
    central.setUint32(24, e.size, true);
    central.setUint16(28, name.length, true);
    central.setUint32(42, offset, true);
    locals.push(new Uint8Array(local.buffer), name, e.data);
    centrals.push(new Uint8Array(central.buffer), name);
    offset += 30 + name.length + e.data.length;
  }
  const dir = concat(centrals);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, entries.length, true);
  end.setUint16(10, entries.length, true);
  end.setUint32(12, dir.length, true);
  end.setUint32(16, offset, true);
  return concat([...locals, dir, new Uint8Array(end.buffer)]);
}

/**
 * A zip whose directory names one member `copies` times under different names, every entry
 * pointing at the same bytes (overlapping members: each would expand the same data again).
 */
export function overlappingZip(content: string, copies: number): Uint8Array {
  const data = zlib.deflateRawSync(Buffer.from(content));
  const name = new TextEncoder().encode('runs-0.csv');
  const local = new DataView(new ArrayBuffer(30));
  local.setUint32(0, 0x04034b50, true);
  local.setUint16(4, 20, true);
  local.setUint16(8, 8, true);
  local.setUint32(18, data.length, true);
  local.setUint32(22, Buffer.byteLength(content), true);
  local.setUint16(26, name.length, true);
  const centrals: Uint8Array[] = [];
  for (let i = 0; i < copies; i++) {
    const copyName = new TextEncoder().encode(`runs-${i}.csv`);
    const central = new DataView(new ArrayBuffer(46));
    central.setUint32(0, 0x02014b50, true);
    central.setUint16(4, 20, true);
    central.setUint16(6, 20, true);
    central.setUint16(10, 8, true);
    central.setUint32(20, data.length, true);
    central.setUint32(24, Buffer.byteLength(content), true);
    central.setUint16(28, copyName.length, true);
    central.setUint32(42, 0, true);
    centrals.push(new Uint8Array(central.buffer), copyName);
  }
  const dir = concat(centrals);
  const before = 30 + name.length + data.length;
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, copies, true);
  end.setUint16(10, copies, true);
  end.setUint32(12, dir.length, true);
  end.setUint32(16, before, true);
  return concat([new Uint8Array(local.buffer), name, data, dir, new Uint8Array(end.buffer)]);
}

/** A gzip file of `text` repeated over `mib` MiB (a CSV bomb: a line a thousand times smaller compressed). */
export const repeatedGzip = (text: string, mib: number): Uint8Array =>
  zlib.gzipSync(Buffer.alloc(mib * 1024 * 1024, text), { level: 9 });

/** Deflates bytes raw (a zip entry's data). */
export const deflateRaw = (data: Uint8Array): Uint8Array => zlib.deflateRawSync(data);

/** "Billion laughs": nested entities that would expand to gigabytes. */
export function billionLaughs(): string {
  const entities = ['<!ENTITY lol "lol">'];
  for (let i = 1; i <= 9; i++) entities.push(`<!ENTITY lol${i} "${`&lol${i === 1 ? '' : i - 1};`.repeat(10)}">`);
  return `<?xml version="1.0"?>\n<!DOCTYPE gpx [\n${entities.join('\n')}\n]>\n<gpx version="1.1"><trk><name>&lol9;</name><trkseg><trkpt lat="1" lon="1"><time>2024-01-01T00:00:00Z</time></trkpt><trkpt lat="1.01" lon="1"><time>2024-01-01T00:10:00Z</time></trkpt></trkseg></trk></gpx>`;
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
