/** The shape of a `npm run bench` result file (bench/results/<time>-<dialect>.json), and its number format. */
import type { LoadResult } from './load.js';

export interface EndpointResult extends LoadResult {
  name: string;
  read: boolean;
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
