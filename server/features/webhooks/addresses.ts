/**
 * Where a webhook may point (CONTRACT.md §20): unless WEBHOOK_PRIVATE=1, never to an address of
 * this machine or its networks. A URL whose host is an IP literal is judged when it is saved; a
 * name is resolved once per delivery, the address judged, and the connection made to that
 * address only (so a name cannot answer one address to the check and another to the connection).
 */
import dns from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

const REFUSED_V4 = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '224.0.0.0/3', // 224/4 and everything above it
].map((cidr) => ipaddr.IPv4.parseCIDR(cidr));

const REFUSED_V6 = ['::/128', '::1/128', 'fc00::/7', 'fe80::/10'].map((cidr) => ipaddr.IPv6.parseCIDR(cidr));

/** Is this address (any text form ipaddr.js reads, IPv4-mapped IPv6 included) one a delivery may not reach? */
export function isRefusedAddress(address: string): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  } catch {
    return true;
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
    else return REFUSED_V6.some((range) => v6.match(range));
  }
  const v4 = parsed as ipaddr.IPv4;
  return REFUSED_V4.some((range) => v4.match(range));
}

/** The host of a URL as an IP literal (brackets removed), or null when it is a name. */
export function literalHost(hostname: string): string | null {
  const bare = hostname.replace(/^\[|\]$/g, '');
  return ipaddr.isValid(bare) && (bare.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(bare)) ? bare : null;
}

export interface Resolved {
  address: string;
  family: 4 | 6;
}

/** The one address a delivery connects to: the host's first address, resolved once. */
export async function resolveOnce(hostname: string): Promise<Resolved> {
  const literal = literalHost(hostname);
  if (literal) return { address: literal, family: literal.includes(':') ? 6 : 4 };
  const found = await dns.lookup(hostname, { verbatim: true });
  return { address: found.address, family: found.family === 6 ? 6 : 4 };
}
