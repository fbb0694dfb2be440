/**
 * The soak's mixed workload: every connection signs in as one runner and loops through
 * ten calls, four of them writes (create, update, create, delete) and six reads. Every
 * write the server acknowledges is recorded, so that the database can be checked
 * against it afterwards.
 */
import { createRequire } from 'node:module';

/**
 * The part of autocannon's API the soak uses (the package ships no types; these are
 * local so that they never clash with another declaration of the module).
 */
interface CannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
}
interface Client {
  setHeaders(headers: Record<string, string>): void;
}
interface Histogram {
  p50: number;
  p90: number;
  p99: number;
  max: number;
}
interface Result {
  requests: { total: number };
  latency: Histogram;
  duration: number;
  errors: number;
  timeouts: number;
  '2xx': number;
  '4xx': number;
  '5xx': number;
}
type Autocannon = (
  options: {
    url: string;
    connections: number;
    duration: number;
    timeout: number;
    requests: unknown[];
    setupClient: (client: Client) => void;
  },
  callback: (error: Error | null, result: Result) => void,
) => unknown;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

export interface Runner {
  id: number;
  token: string;
}

export interface EntryValues {
  date: string;
  distance: number;
  time: string;
}

export interface ExpectedEntry extends EntryValues {
  userId: number;
}

/** What the server acknowledged, and what was still in flight when the load stopped. */
export class Ledger {
  /** Entries that must exist, with their last acknowledged values. */
  readonly live = new Map<number, ExpectedEntry>();
  /** Entries whose deletion was acknowledged. */
  readonly deleted = new Set<number>();
  /** Writes sent but not answered: the entry may be in either state. */
  readonly inFlight = new Map<string, { id: number; kind: 'update' | 'delete'; values?: EntryValues }>();
  created = 0;
  updated = 0;
  deletedCount = 0;

  acknowledgeCreate(id: number, entry: ExpectedEntry): void {
    this.live.set(id, entry);
    this.created += 1;
  }

  acknowledgeUpdate(id: number, values: EntryValues): void {
    const entry = this.live.get(id);
    if (entry) this.live.set(id, { ...entry, ...values });
    this.updated += 1;
  }

  acknowledgeDelete(id: number): void {
    this.live.delete(id);
    this.deleted.add(id);
    this.deletedCount += 1;
  }
}

let inFlightCounter = 0;

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** A plausible run: up to 300 days ago (never "today", whatever the zone), 1-42.195 km, 3-8 min/km. */
export function randomRun(now = Date.now()): EntryValues {
  const daysAgo = 1 + Math.floor(Math.random() * 300);
  const date = new Date(now - daysAgo * 86_400_000).toISOString().slice(0, 10);
  const distance = Math.round((1 + Math.random() * 41.195) * 1000) / 1000;
  const seconds = Math.max(1, Math.round(distance * (180 + Math.random() * 300)));
  const time = `${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}`;
  return { date, distance, time };
}

interface Context {
  userId?: number;
  a?: number;
  b?: number;
  inFlight?: string;
  values?: EntryValues;
}

interface Request {
  method: string;
  path: string;
  setupRequest: (req: CannonRequest, context: Context) => CannonRequest;
  onResponse?: (status: number, body: string, context: Context) => void;
}

/** The connection's headers (its runner's token) plus a JSON content type, for the calls with a body. */
function withJson(req: CannonRequest): Record<string, string> {
  return { ...req.headers, 'content-type': 'application/json' };
}

function entryId(body: string): number | undefined {
  try {
    const id = (JSON.parse(body) as { entry?: { id?: unknown } }).entry?.id;
    return typeof id === 'number' ? id : undefined;
  } catch {
    return undefined;
  }
}

export function workload(
  runners: Runner[],
  ledger: Ledger,
): { requests: Request[]; setupClient: (client: Client) => void } {
  const byToken = new Map(runners.map((r) => [`Bearer ${r.token}`, r.id]));
  let next = 0;
  const userOf = (req: CannonRequest) => byToken.get(String(req.headers?.authorization)) ?? 0;
  const get = (path: string): Request => ({
    method: 'GET',
    path,
    setupRequest: (req) => ({ ...req, method: 'GET', path, body: undefined }),
  });

  const create = (slot: 'a' | 'b'): Request => ({
    method: 'POST',
    path: '/api/v1/entry',
    setupRequest: (req, context) => {
      context.userId = userOf(req);
      context.values = randomRun();
      return {
        ...req,
        method: 'POST',
        path: '/api/v1/entry',
        headers: withJson(req),
        body: JSON.stringify(context.values),
      };
    },
    onResponse: (status, body, context) => {
      const id = status === 201 ? entryId(body) : undefined;
      if (id !== undefined && context.values && context.userId) {
        ledger.acknowledgeCreate(id, { userId: context.userId, ...context.values });
        context[slot] = id;
      }
    },
  });

  /** A write to an entry created earlier in this cycle; a read when that create failed. */
  const change = (kind: 'update' | 'delete', slot: 'a' | 'b'): Request => ({
    method: kind === 'update' ? 'PUT' : 'DELETE',
    path: '/api/v1/entry',
    setupRequest: (req, context) => {
      const id = context[slot];
      if (id === undefined) return { ...req, method: 'GET', path: '/api/v1/user/me', body: undefined };
      inFlightCounter += 1;
      context.inFlight = `${process.pid}-${inFlightCounter}`;
      const values = kind === 'update' ? randomRun() : undefined;
      ledger.inFlight.set(context.inFlight, { id, kind, ...(values ? { values } : {}) });
      context.values = values;
      return kind === 'update'
        ? { ...req, method: 'PUT', path: `/api/v1/entry/${id}`, headers: withJson(req), body: JSON.stringify(values) }
        : { ...req, method: 'DELETE', path: `/api/v1/entry/${id}`, body: undefined };
    },
    onResponse: (status, _body, context) => {
      const id = context[slot];
      if (!context.inFlight || id === undefined) return;
      ledger.inFlight.delete(context.inFlight);
      context.inFlight = undefined;
      if (status !== 200) return;
      if (kind === 'update' && context.values) ledger.acknowledgeUpdate(id, context.values);
      if (kind === 'delete') ledger.acknowledgeDelete(id);
    },
  });

  const requests: Request[] = [
    create('a'),
    get('/api/v1/entry?per_page=15'),
    {
      method: 'GET',
      path: '/api/v1/entry',
      setupRequest: (req, context) => ({
        ...req,
        method: 'GET',
        path: context.a !== undefined ? `/api/v1/entry/${context.a}` : '/api/v1/user/me',
        body: undefined,
      }),
    },
    change('update', 'a'),
    get('/api/v1/dashboard/data'),
    get('/api/v1/report/weekly'),
    create('b'),
    change('delete', 'b'),
    get('/api/v1/user/me'),
    get('/api/v1/entry?page=2&per_page=10&dateFrom=2000-01-01'),
  ];

  const setupClient = (client: Client) => {
    const runner = runners[next % runners.length]!;
    next += 1;
    client.setHeaders({ authorization: `Bearer ${runner.token}` });
  };
  return { requests, setupClient };
}

export interface LoadResult {
  requests: number;
  durationSeconds: number;
  errors: number;
  timeouts: number;
  status2xx: number;
  status4xx: number;
  status5xx: number;
  latency: { p50: number; p90: number; p99: number; max: number };
}

/** Runs the workload against `baseUrl` for `durationSeconds` with `connections` connections. */
export async function runLoad(options: {
  baseUrl: string;
  runners: Runner[];
  ledger: Ledger;
  connections: number;
  durationSeconds: number;
}): Promise<LoadResult> {
  const { requests, setupClient } = workload(options.runners, options.ledger);
  const result = await new Promise<Result>((resolve, reject) => {
    autocannon(
      {
        url: options.baseUrl,
        connections: options.connections,
        duration: options.durationSeconds,
        timeout: 20,
        requests,
        setupClient,
      },
      (error, outcome) => (error ? reject(error) : resolve(outcome)),
    );
  });
  return {
    requests: result.requests.total,
    durationSeconds: result.duration,
    errors: result.errors,
    timeouts: result.timeouts,
    status2xx: result['2xx'],
    status4xx: result['4xx'],
    status5xx: result['5xx'],
    latency: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
  };
}
