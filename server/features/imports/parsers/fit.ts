/** FIT activities (Garmin and others): each session's sport, start, total distance and timer time. */
import { Decoder, Stream } from '@garmin/fitsdk';
import { notARun, skipFile, type ParsedFile, type ParsedRow } from './types.js';

interface Session {
  sport?: string | number;
  subSport?: string | number;
  startTime?: Date;
  totalDistance?: number;
  totalTimerTime?: number;
}

export const isFit = (bytes: Uint8Array) =>
  bytes.length >= 12 && bytes[8] === 0x2e && bytes[9] === 0x46 && bytes[10] === 0x49 && bytes[11] === 0x54;

export function parseFit(source: string, bytes: Uint8Array): ParsedFile {
  if (!isFit(bytes)) return skipFile(source, 'The file is not a FIT file.');
  let sessions: Session[] = [];
  let errors: unknown[] = [];
  try {
    const decoder = new Decoder(Stream.fromByteArray(bytes));
    const result = decoder.read({
      expandComponents: false,
      mergeHeartRates: false,
      includeUnknownData: false,
      applyScaleAndOffset: true,
      convertTypesToStrings: true,
      convertDateTimesToDates: true,
    });
    sessions = (result.messages.sessionMesgs ?? []) as Session[];
    errors = result.errors ?? [];
  } catch {
    return skipFile(source, 'The FIT file is damaged and could not be read.');
  }
  if (sessions.length === 0) {
    return skipFile(
      source,
      errors.length > 0
        ? 'The FIT file is damaged or truncated (no complete session).'
        : 'The FIT file holds no activity session.',
    );
  }
  const rows: ParsedRow[] = sessions.map((session, index): ParsedRow => {
    const where = sessions.length > 1 ? `${source}#${index + 1}` : source;
    const sport = String(session.sport ?? 'unknown');
    if (sport !== 'running') return { source: where, skip: notARun(sport) };
    if (!(session.startTime instanceof Date) || Number.isNaN(session.startTime.getTime())) {
      return { source: where, skip: 'The session has no start time.' };
    }
    return {
      source: where,
      run: {
        start: session.startTime,
        distanceKm: (session.totalDistance ?? 0) / 1000,
        seconds: session.totalTimerTime ?? 0,
      },
    };
  });
  return { rows };
}
