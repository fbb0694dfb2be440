/** Configuration, read from the environment once at start-up. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Config {
  port: number;
  host: string;
  /** `sqlite:<path>`, `sqlite::memory:` or `postgres://...`. */
  databaseUrl: string;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  demoMode: boolean;
  logLevel: string;
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /** Largest accepted import upload (POST /import), in bytes. */
  importMaxBytes: number;
  /** Folder of the built web app, or null to serve the API only. */
  webRoot: string | null;
  /** The map's tiles (`{z}/{x}/{y}` template) and their attribution; null: no tiles (MAP_TILE_URL=off). */
  mapTileUrl: string | null;
  /** The origins the browser fetches those tiles from (the CSP's img-src); empty when there are none. */
  mapTileOrigins: string[];
  mapTileAttribution: string;
  /** The clock; tests replace it to move time. */
  now: () => Date;
  trustProxy: boolean;
  /** Size of the PostgreSQL connection pool. */
  dbPoolSize: number;
  /** PostgreSQL: a query without an answer after this long fails, and the request gets 503. */
  dbQueryTimeoutMs: number;
  /** Check every response against its schema as well (the test suite's setting; not for production). */
  verifyResponses: boolean;
  /** How fast a request body must keep coming (http/body-pace.ts). */
  bodyPace: { graceMs: number; minBytesPerSecond: number };
  /** Where the product's source code is (SOURCE_URL, else package.json `repository`); null hides the link. */
  sourceUrl: string | null;
  /** The server's address as users reach it (PUBLIC_URL, no trailing slash), or null when not set. */
  publicUrl: string | null;
  /** Outgoing mail (CONTRACT.md §21): on only with SMTP_URL, MAIL_FROM and PUBLIC_URL; null: off. */
  mail: MailConfig | null;
  /** Who may make an account (SIGNUP, CONTRACT.md §21): open (default), verify, approval or closed. */
  signup: SignupPolicy;
  /** Single sign-on (CONTRACT.md §21): on only with OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and PUBLIC_URL; null: off. */
  oidc: OidcConfig | null;
  /** WEBHOOK_PRIVATE=1: webhooks may reach private and local addresses (a home server calling Home Assistant). */
  webhookPrivate: boolean;
  /** The folder holding each runner's inbox folder (INBOX_DIR, made absolute), or null: the inbox is off. */
  inboxDir: string | null;
  /** How the inbox folders are read (§20's values; tests shorten them). */
  inboxTiming: InboxTiming;
}

export const SIGNUP_POLICIES = ['open', 'verify', 'approval', 'closed'] as const;
export type SignupPolicy = (typeof SIGNUP_POLICIES)[number];

export interface MailConfig {
  /** `smtp://` or `smtps://user:pass@host:port`. */
  smtpUrl: string;
  /** The From of every mail. */
  from: string;
}

export interface OidcConfig {
  /** The provider's issuer, as its discovery document names it (OIDC_ISSUER). */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The provider's name on the login page's button (OIDC_NAME). */
  name: string;
  /** OIDC_ONLY=1: no password form, and password logins refused except for admins. */
  only: boolean;
}

/** The inbox reader's timing (server/features/inbox/inbox.watcher.ts keeps the defaults, §20). */
export interface InboxTiming {
  stableMs: number;
  scanMs: number;
  listMs: number;
  keysMs: number;
  staleClaimMs: number;
}

export const INBOX_TIMING: InboxTiming = {
  stableMs: 2000,
  // 2,000 idle folders: about 10 ms of CPU a scan (their status read), so 0.5% of a core (decision 045).
  scanMs: 2000,
  listMs: 30_000,
  keysMs: 5000,
  staleClaimMs: 3_600_000,
};

export class ConfigError extends Error {}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

const here = path.dirname(fileURLToPath(import.meta.url));
/** dist/server/config.js → dist/web; server/config.ts → dist/web. */
const defaultWebRoot = path.resolve(here, here.includes(`${path.sep}dist${path.sep}`) ? '../web' : '../dist/web');

/** package.json: ../package.json from server/, ../../package.json from dist/server/. */
const packageJson = path.resolve(
  here,
  here.includes(`${path.sep}dist${path.sep}`) ? '../../package.json' : '../package.json',
);

/**
 * A web address to link to: http(s) only (never `javascript:`), with npm's spellings of a
 * repository read as the page they name (`git+https://host/x.git`, `github:owner/name`).
 */
export function sourceUrlOf(spelling: unknown): string | null {
  if (typeof spelling !== 'string') return null;
  const text = spelling.trim();
  const shorthand = /^(?:github:)?([\w.-]+\/[\w.-]+)$/.exec(text);
  const candidate = shorthand
    ? `https://github.com/${shorthand[1]}`
    : text.replace(/^git\+/, '').replace(/^git:\/\//, 'https://');
  try {
    const url = new URL(candidate.replace(/\.git$/, ''));
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href.replace(/\/$/, '') : null;
  } catch {
    return null;
  }
}

/** The `repository` of package.json (a string or `{url}`), or undefined when there is none. */
function packageRepository(): unknown {
  try {
    const repository: unknown = (JSON.parse(readFileSync(packageJson, 'utf8')) as { repository?: unknown }).repository;
    return typeof repository === 'object' && repository !== null ? (repository as { url?: unknown }).url : repository;
  } catch {
    return undefined;
  }
}

function sourceUrlFrom(env: NodeJS.ProcessEnv): string | null {
  if (!env.SOURCE_URL) return sourceUrlOf(packageRepository());
  const url = sourceUrlOf(env.SOURCE_URL);
  if (!url) throw new ConfigError(`SOURCE_URL must be an http or https address, got "${env.SOURCE_URL}".`);
  return url;
}

function publicUrlFrom(env: NodeJS.ProcessEnv): string | null {
  if (!env.PUBLIC_URL) return null;
  const refuse = () =>
    new ConfigError(
      `PUBLIC_URL must be an http or https address such as https://runs.example.org, got "${env.PUBLIC_URL}".`,
    );
  let url: URL;
  try {
    url = new URL(env.PUBLIC_URL);
  } catch {
    throw refuse();
  }
  if (!/^https?:$/.test(url.protocol) || url.username || url.password || url.search || url.hash) throw refuse();
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/**
 * The base of every absolute link the server writes (the pages of a list): PUBLIC_URL, else the
 * address it listens on. Never the request's Host (CONTRACT.md Part 4).
 */
export function linkBaseOf(config: Pick<Config, 'publicUrl' | 'host' | 'port'>): string {
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return config.publicUrl ?? `http://${host}:${config.port}`;
}

function mailFrom(env: NodeJS.ProcessEnv, publicUrl: string | null): MailConfig | null {
  if (!env.SMTP_URL) return null;
  let url: URL;
  try {
    url = new URL(env.SMTP_URL);
  } catch {
    url = new URL('invalid:');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new ConfigError(
      'SMTP_URL must be an smtp:// or smtps:// address such as smtps://user:password@mail.example.org:465.',
    );
  }
  if (!env.MAIL_FROM) throw new ConfigError('SMTP_URL is set but MAIL_FROM is not: set the address mails come from.');
  // Links in mails are built from PUBLIC_URL alone, never from a request's Host.
  if (!publicUrl) throw new ConfigError('SMTP_URL is set but PUBLIC_URL is not: mails need it to build their links.');
  return { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM };
}

function signupFrom(env: NodeJS.ProcessEnv, mail: MailConfig | null): SignupPolicy {
  const value = (env.SIGNUP || 'open').toLowerCase();
  if (!(SIGNUP_POLICIES as readonly string[]).includes(value)) {
    throw new ConfigError(`SIGNUP must be one of ${SIGNUP_POLICIES.join(', ')}; got "${env.SIGNUP}".`);
  }
  if (value === 'verify' && !mail) {
    throw new ConfigError(
      'SIGNUP=verify needs mail to send its links: set SMTP_URL, MAIL_FROM and PUBLIC_URL, or choose another SIGNUP policy.',
    );
  }
  return value as SignupPolicy;
}

function oidcFrom(env: NodeJS.ProcessEnv, publicUrl: string | null): OidcConfig | null {
  const only = flag(env, 'OIDC_ONLY');
  if (!env.OIDC_ISSUER && !env.OIDC_CLIENT_ID && !env.OIDC_CLIENT_SECRET) {
    if (only)
      throw new ConfigError(
        'OIDC_ONLY is set but single sign-on is not: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET.',
      );
    return null;
  }
  for (const name of ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET']) {
    if (!env[name]) {
      throw new ConfigError(
        `Single sign-on needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together: ${name} is not set.`,
      );
    }
  }
  let issuer: URL | null = null;
  try {
    issuer = new URL(env.OIDC_ISSUER ?? '');
  } catch {
    issuer = null;
  }
  if (
    !issuer ||
    !/^https?:$/.test(issuer.protocol) ||
    issuer.username ||
    issuer.password ||
    issuer.search ||
    issuer.hash
  ) {
    throw new ConfigError(
      `OIDC_ISSUER must be the provider's http or https address such as https://auth.example.org, got "${env.OIDC_ISSUER}".`,
    );
  }
  // The redirect URI is built from PUBLIC_URL alone, never from a request's Host.
  if (!publicUrl) {
    throw new ConfigError('OIDC_ISSUER is set but PUBLIC_URL is not: single sign-on needs it for its redirect URI.');
  }
  return {
    issuer: env.OIDC_ISSUER ?? '',
    clientId: env.OIDC_CLIENT_ID ?? '',
    clientSecret: env.OIDC_CLIENT_SECRET ?? '',
    name: (env.OIDC_NAME ?? '').trim() || 'single sign-on',
    only,
  };
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}".`);
  }
  return value;
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  return ['1', 'true', 'yes', 'on'].includes((env[name] ?? '').toLowerCase());
}

const DEFAULT_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';

/**
 * The subdomains a `{s}` of the tile template stands for: Leaflet's default, which the web app's
 * tile layer keeps (web/features/tracks/components/map-setup.ts passes no `subdomains`).
 */
const MAP_TILE_SUBDOMAINS = ['a', 'b', 'c'];

/** The map's tiles: the template the web app is given, and the origins its tiles come from. */
export interface MapTiles {
  url: string | null;
  origins: string[];
}

/** A host name of letters, digits, `-` and `.` (a `{s}` may stand in a label), then an optional `:port`. */
const TILE_HOST = /^(?:[a-z0-9-]|\{s\})+(?:\.(?:[a-z0-9-]|\{s\})+)*(?::(\d{1,5}))?$/i;
/** What the rest of the template may hold besides `{z}`, `{x}` and `{y}`: path and query characters, `%XX` escapes. */
const TILE_PATH_CHARACTER = /^(?:[a-z0-9\-._~/?=&+:@]|%[0-9a-f]{2})$/i;

function refuseTiles(problem: string): never {
  throw new ConfigError(
    `MAP_TILE_URL must be an http(s) URL template with {z}, {x} and {y} (and {s} only in the host name), or "off": ${problem}.`,
  );
}

/**
 * MAP_TILE_URL: an http(s) URL template with {z}, {x} and {y}, or `off`; default OpenStreetMap's.
 * Checked here, at start, because its origins go into the Content-Security-Policy header: the host
 * is letters, digits, `-`, `.` and `{s}` (expanded to each of MAP_TILE_SUBDOMAINS), with an optional
 * port; the rest is path and query characters and the three placeholders. This is the one place
 * the tile origins are derived.
 */
export function mapTilesOf(value: string | undefined): MapTiles {
  if (value === undefined || value === '') return mapTilesOf(DEFAULT_TILE_URL);
  if (value.toLowerCase() === 'off') return { url: null, origins: [] };
  const scheme = /^https?:\/\//i.exec(value);
  if (!scheme) refuseTiles('it must start with http:// or https://');
  const rest = value.slice(scheme[0].length);
  const hostEnd = rest.search(/[/?#]/);
  const host = hostEnd === -1 ? rest : rest.slice(0, hostEnd);
  const path = hostEnd === -1 ? '' : rest.slice(hostEnd);
  if (host.includes('@')) refuseTiles('it must not hold a user name or password (user@)');
  if (host === '') refuseTiles('it has no host name');
  const hostMatch = TILE_HOST.exec(host);
  if (!hostMatch || Number(hostMatch[1] ?? 0) > 65535) {
    refuseTiles('its host may only hold letters, digits, "-", "." and {s}, then an optional :port of digits');
  }
  for (const placeholder of path.match(/\{[^}]*\}?/g) ?? []) {
    if (!['{z}', '{x}', '{y}'].includes(placeholder)) {
      refuseTiles(`its path holds ${placeholder}: the only placeholders are {z}, {x}, {y}, and {s} in the host name`);
    }
  }
  if (!['{z}', '{x}', '{y}'].every((part) => path.includes(part))) refuseTiles('it must hold {z}, {x} and {y}');
  const other = path
    .replace(/\{[zxy]\}/g, '')
    .match(/%[0-9a-f]{2}|[\s\S]/giu)
    ?.find((part) => !TILE_PATH_CHARACTER.test(part));
  if (other !== undefined) {
    refuseTiles(
      `its path holds ${JSON.stringify(other)}; only letters, digits, %XX and - . _ ~ / ? = & + : @ may appear`,
    );
  }
  const origins = (host.includes('{s}') ? MAP_TILE_SUBDOMAINS : ['']).map((subdomain) => {
    try {
      // The URL parser lower-cases the host and drops a default port: the origin as browsers compare it.
      return new URL(`${scheme[0]}${host.replaceAll('{s}', subdomain)}/`).origin;
    } catch {
      return refuseTiles(`${host} is not a valid host name`);
    }
  });
  return { url: value, origins: [...new Set(origins)] };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const databaseUrl = env.DATABASE_URL || `sqlite:${path.resolve('data', 'running-times.db')}`;
  if (!/^(sqlite:|postgres:\/\/|postgresql:\/\/)/.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with sqlite: or postgres://');
  }
  // SQLite would open a throwaway temporary database for an empty path: nothing would be kept.
  if (databaseUrl.startsWith('sqlite:') && databaseUrl.slice('sqlite:'.length).trim() === '') {
    throw new ConfigError('DATABASE_URL sqlite: needs a file path, e.g. sqlite:./data/running-times.db.');
  }
  const logLevel = (env.LOG_LEVEL || 'info').toLowerCase();
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}; got "${env.LOG_LEVEL}".`);
  }
  const mapTiles = mapTilesOf(env.MAP_TILE_URL);
  const publicUrl = publicUrlFrom(env);
  const mail = mailFrom(env, publicUrl);
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: env.HOST || '127.0.0.1',
    databaseUrl,
    adminEmail: env.ADMIN_EMAIL || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    demoMode: flag(env, 'DEMO_MODE'),
    logLevel,
    bodyLimit: integer(env, 'BODY_LIMIT', 1024 * 1024, 1024, 100 * 1024 * 1024),
    // 1 GiB: a runner's whole zip export (§16), every original file in it, fits in one upload.
    importMaxBytes: integer(env, 'IMPORT_MAX_BYTES', 1024 * 1024 * 1024, 1024, 4 * 1024 * 1024 * 1024),
    webRoot: env.WEB_ROOT === '' ? null : (env.WEB_ROOT ?? defaultWebRoot),
    mapTileUrl: mapTiles.url,
    mapTileOrigins: mapTiles.origins,
    mapTileAttribution: env.MAP_TILE_ATTRIBUTION || '© OpenStreetMap contributors',
    now: () => new Date(),
    trustProxy: flag(env, 'TRUST_PROXY'),
    dbPoolSize: integer(env, 'DB_POOL_SIZE', 10, 1, 200),
    dbQueryTimeoutMs: integer(env, 'DB_QUERY_TIMEOUT_MS', 5000, 100, 600_000),
    verifyResponses: false,
    bodyPace: {
      graceMs: integer(env, 'BODY_GRACE_MS', 10_000, 1000, 600_000),
      minBytesPerSecond: integer(env, 'BODY_MIN_BYTES_PER_SECOND', 8 * 1024, 1, 100 * 1024 * 1024),
    },
    sourceUrl: sourceUrlFrom(env),
    publicUrl,
    mail,
    signup: signupFrom(env, mail),
    oidc: oidcFrom(env, publicUrl),
    webhookPrivate: flag(env, 'WEBHOOK_PRIVATE'),
    inboxDir: env.INBOX_DIR ? path.resolve(env.INBOX_DIR) : null,
    inboxTiming: INBOX_TIMING,
  };
}
