/** The shape of a `npm run bench` result file (bench/results/<time>-<dialect>.json), and its number format. */
import type { LoadResult } from './load.js';
import type { OthersItem } from './others-during.js';
import type { TrackSizes } from './track-size.js';

export interface EndpointResult extends LoadResult {
  name: string;
  read: boolean;
  /** Loaded at the admin panel's concurrency (--admin-connections). */
  admin?: boolean;
  /** Loaded at connections of its own (else the run's, or the admin panel's). */
  connections?: number;
  /** Held to a p99 target of its own (ms) rather than every runner's read's. */
  p99Target?: number;
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
  /** Of the seed: making and storing the tracks (absent from results before tracks). */
  trackSeconds?: number;
  /** The stored size of the long-history runner's tracks (absent from results before tracks). */
  trackSizes?: TrackSizes;
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
    tracks?: number;
    longHistoryTracks?: number;
    logLevel: string | undefined;
  };
  baseline: SizeResult;
  full: SizeResult;
  p50Ratios: { name: string; ratio: number }[];
  /** §15: the first reads of records and predictions after each of ten imports, ms. */
  afterImport?: { records: number[]; predictions: number[] } | null;
  instances: InstancesResult | null;
  targets: Target[];
  seconds: number;
}

/** A target of a bench, met or not, and what was measured against it. */
export interface Target {
  target: string;
  pass: boolean;
  detail: string;
}

/** One import or export of `npm run bench:import`. */
export interface TransferResult {
  created?: number;
  seconds: number;
  runsPerSecond: number;
  rssGrowthMiB?: number;
}

/** §17: the import of a zip of one-hour watch files, against decoding them alone. */
export interface TrackImportResult extends TransferResult {
  files: number;
  secondsPerFile: number;
  uploadMiB: number;
  filesPerSecond: number;
  /** The FIT SDK's Decoder with its default options, in the bench's process, one file after another. */
  decodeOnlyFilesPerSecond: number;
  /** The same with the options the import's parser uses. */
  parserDecodeFilesPerSecond: number;
  rssGrowthMiB: number;
  rssBeforeMiB: number;
  rssPeakMiB: number;
  heapGrowthMiB: number;
  trackSizes: TrackSizes;
  targets: Target[];
}

/** The shape of a `npm run bench:import` result file (bench/results/<time>-import-<dialect>.json), as far as it is rendered. */
export interface ImportReport {
  /** Absent from results before tracks. */
  date?: string;
  dialect: string;
  /** The machine's cores and how busy it was (absent from results before the open-loop prober). */
  cpus?: number;
  loadAverageAtStart?: number[];
  loadAverageAtEnd?: number[];
  stravaCsv?: TransferResult;
  fitZip?: TransferResult;
  tracks?: TrackImportResult;
  ownCsv?: TransferResult;
  export_csv?: TransferResult;
  export_json?: TransferResult;
  large?: TransferResult & { fileMiB: number };
  /** Another runner probed open-loop during long work and hostile files (absent from results before it). */
  others?: {
    intervalMs: number;
    drainSeconds: number;
    itemTimeoutSeconds: number;
    stallRuns: number;
    stallFitFiles: number;
    hostileScale: number;
    items: OthersItem[];
  };
  /** Every target of `others`, each named after its item. */
  targets?: Target[];
}

/** A number with thousands separators and a fixed number of decimals; "-" when there is none. */
export const fmt = (n: number, digits = 0) =>
  Number.isFinite(n)
    ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : '-';
