/**
 * A request's URL as the request log writes it: a calendar feed's path carries its private key,
 * the only authentication of `/ical/<key>.ics` (CONTRACT.md §20), so it is written as
 * `/ical/[hidden].ics`, whatever follows it.
 */
export function loggedUrl(url: string): string {
  return url.startsWith('/ical/') ? `/ical/[hidden]${/\.ics(?:[?#]|$)/.test(url) ? '.ics' : ''}` : url;
}
