/**
 * A request's URL as the request log writes it: a calendar feed's path carries its private key,
 * the only authentication of `/ical/<key>.ics` (CONTRACT.md §20), so it is written as
 * `/ical/[hidden].ics`, whatever follows it. The single sign-on callback's query (the provider's
 * code and the state, §21) is written as `?[hidden]`.
 */
export function loggedUrl(url: string): string {
  if (url.startsWith('/api/v1/auth/oidc/callback?')) return '/api/v1/auth/oidc/callback?[hidden]';
  return url.startsWith('/ical/') ? `/ical/[hidden]${/\.ics(?:[?#]|$)/.test(url) ? '.ics' : ''}` : url;
}
