/**
 * The iCalendar text of the calendar feed (RFC 5545, decision 042): TEXT values escaped, content
 * lines folded at 75 octets of UTF-8 without splitting a character, CRLF line ends. Pure: the
 * service feeds it one page of runs at a time.
 */

const CRLF = '\r\n';
const LINE_OCTETS = 75;

/** A TEXT value (RFC 5545 §3.3.11): backslash, semicolon, comma and newlines escaped. */
export function escapeText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

const octetsOf = (codePoint: number) => (codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4);

/**
 * A content line folded (RFC 5545 §3.1): at most 75 octets a line, each continuation starting with
 * one space (which counts in its 75), split only between characters; ends with CRLF.
 */
export function foldLine(line: string): string {
  let out = '';
  let used = 0;
  for (const char of line) {
    const size = octetsOf(char.codePointAt(0)!);
    if (used + size > LINE_OCTETS) {
      out += `${CRLF} `;
      used = 1;
    }
    out += char;
    used += size;
  }
  return out + CRLF;
}

/** `YYYYMMDDTHHMMSSZ`, the instant in UTC. */
export function utcStamp(iso: string): string {
  const date = new Date(iso);
  const text = Number.isNaN(date.getTime()) ? new Date(0).toISOString() : date.toISOString();
  return `${text.slice(0, 4)}${text.slice(5, 7)}${text.slice(8, 10)}T${text.slice(11, 13)}${text.slice(14, 16)}${text.slice(17, 19)}Z`;
}

export interface FeedEvent {
  uid: string;
  /** YYYY-MM-DD */
  date: string;
  /** The run's updated_at (ISO). */
  stamp: string;
  summary: string;
  description: string;
  url: string;
}

export function calendarHead(name: string): string {
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Running Times//Calendar feed//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(name)}`,
  ]
    .map(foldLine)
    .join('');
}

export function calendarTail(): string {
  return foldLine('END:VCALENDAR');
}

export function eventText(event: FeedEvent): string {
  return [
    'BEGIN:VEVENT',
    `UID:${escapeText(event.uid)}`,
    `DTSTAMP:${utcStamp(event.stamp)}`,
    `DTSTART;VALUE=DATE:${event.date.replace(/-/g, '')}`,
    `SUMMARY:${escapeText(event.summary)}`,
    `DESCRIPTION:${escapeText(event.description)}`,
    `URL:${event.url}`,
    'TRANSP:TRANSPARENT',
    'END:VEVENT',
  ]
    .map(foldLine)
    .join('');
}
