/** The shape of a `npm run bench` result file (bench/results/<time>-<dialect>.json), and its number format. */
import type { LoadResult } from './load.js';

export interface EndpointResult extends LoadResult {
  name: string;
  read: boolean;
  /** Loaded at the admin panel's concurrency (--admin-connections). */
  admin?: boolean;
  /** Share of the ceiling's req/s (GET /api/health on the same server, measured just before). */
  ofCeiling: number;
  /** That ceiling, in req/s. */
  ceilingRps: number;
  /** Server CPU time per request, in ms. */
  cpuMsPerRequest: number;
}

export interface SizeResult {
  users: number;
  entries: number;
  database: string;
  seedSeconds: number;
  seedRate: number;
  runners: { entryCount: number; lastPage: number }[];
  endpoints: EndpointResult[];
  memory: { rssMb: number; peakRssMb: number };
}

export interface InstancesResult {
  instances: number;
  connectionsPerInstance: number;
  endpoints: {
    name: string;
    singleRps: number;
    perInstanceRps: number[];
    totalRps: number;
    scaling: number;
    p99: number[];
    /** Share of all the machine's CPU time in use while one instance, then all, were loaded. */
    machineBusySingle: number;
    machineBusyTogether: number;
  }[];
}

/**
 * Requests per unit of the machine's busy CPU (app, database and load generator alike)
 * with all instances loaded, over the same for one instance alone. Near 1, a request costs
 * the machine as much with several instances as with one: nothing in between them (locks,
 * contention in the database) eats the added capacity, so instances add up as far as there
 * are free cores. Below 1, running them together costs more per request.
 */
export function perCpuScaling(row: InstancesResult['endpoints'][number]): number {
  return row.totalRps / row.machineBusyTogether / (row.singleRps / row.machineBusySingle);
}

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGb: number;
  node: string;
  platform: string;
  loadAverageAtStart: number[];
}

export interface BenchReport {
  date: string;
  dialect: string;
  machine: Machine & { loadAverageAtEnd: number[] };
  settings: {
    users: number;
    entries: number;
    baselineEntries: number;
    baselineUsers: number;
    duration: number;
    warmup: number;
    connections: number;
    logLevel: string | undefined;
  };
  baseline: SizeResult;
  full: SizeResult;
  p50Ratios: { name: string; ratio: number }[];
  instances: InstancesResult | null;
  targets: { target: string; pass: boolean; detail: string }[];
  seconds: number;
}

/** A number with thousands separators and a fixed number of decimals; "-" when there is none. */
export const fmt = (n: number, digits = 0) =>
  Number.isFinite(n)
    ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : '-';
