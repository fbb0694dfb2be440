/**
 * bench:import's "others during long work": what one piece of long work or one hostile file did
 * to another runner probed open-loop meanwhile (open-loop.ts) and to the server itself, its
 * targets, and the table the bench and bench/markdown.ts print of them.
 */
import type { OpenLoopResult, ProbeKindResult } from './open-loop.js';
import { fmt, type Target } from './report.js';

/** An HTTP status, or what became of a request that got none. */
export type ItemStatus = number | 'died' | 'timeout' | 'failed';

export interface OthersItem {
  /** What --only matches: stall-csv-import, hostile-gzip... */
  name: string;
  /** What was done: "CSV import of 200,000 runs". */
  label: string;
  /** The file sent, if one was. */
  file?: { name: string; bytes: number; dryRun: boolean } | undefined;
  /** The answer's status; `died` when the server died before answering, `timeout` past the item's bound. */
  status: ItemStatus;
  /** From the request's send to the end of its answer (or its failure). */
  seconds: number;
  /** The answer's counts, or the start of a refusal, or the error. */
  detail: string;
  /** A request made after the first within the same item (the hostile track's read). */
  followUp?: { request: string; status: ItemStatus; seconds: number; detail: string } | undefined;
  /** Whether the server process was still running 5 s after the request ended. */
  serverAlive: boolean;
  /** How it ended, when it did: exit code or signal, and the end of what it wrote to stderr. */
  serverExit?: string | undefined;
  /** GET /api/health 5 s after the request ended (5 s bound): its status, or null without an answer. */
  healthAfter: number | null;
  /** The server was started again before this item (the previous one killed it or outlasted its bound). */
  restartedBefore: boolean;
  rssBeforeMiB: number;
  rssPeakMiB: number;
  /** RSS 5 s after the request ended; null when the server was gone. */
  rssAfter5sMiB: number | null;
  /** The other runner, open-loop, for the length of the work. */
  others: OpenLoopResult;
  targets: Target[];
}

export const SLOWEST_WRITE_MS = 2000;
export const SLOWEST_READ_MS = 2000;
export const SLOWEST_HEALTH_MS = 1000;
export const RSS_AFTER_MB = 100;

const MiB = 1024 * 1024;
const toMB = (mib: number) => (mib * MiB) / 1_000_000;

const slowest = (kind: ProbeKindResult, limitMs: number, what: string): Target => ({
  target: `the other runner's slowest ${what} <= ${limitMs / 1000} s`,
  pass: kind.slowestMs <= limitMs,
  detail:
    `${kind.request}: slowest ${fmt(kind.slowestMs)} ms, p99 ${fmt(kind.p99Ms)} ms, p50 ${fmt(kind.p50Ms, 1)} ms ` +
    `over ${fmt(kind.sent)} requests` +
    (kind.unanswered > 0 ? ` (${kind.unanswered} unanswered, counted as their wait)` : ''),
});

/** The targets of one item: the other runner served in time and without 5xx, the server alive and its memory back. */
export function othersTargets(item: Omit<OthersItem, 'targets'>): Target[] {
  const { write, read, health } = item.others;
  const kinds = [write, read, health];
  const serverErrors = kinds.reduce((n, k) => n + k.serverErrors, 0);
  const unanswered = kinds.reduce((n, k) => n + k.failed + k.unanswered, 0);
  const not2xx = kinds.reduce((n, k) => n + k.not2xx, 0);
  const alive = item.serverAlive && item.status !== 'died';
  const growthMB = item.rssAfter5sMiB === null ? Number.NaN : toMB(item.rssAfter5sMiB - item.rssBeforeMiB);
  return [
    slowest(write, SLOWEST_WRITE_MS, 'write'),
    slowest(health, SLOWEST_HEALTH_MS, 'health'),
    slowest(read, SLOWEST_READ_MS, 'read'),
    {
      target: 'no 5xx from the other runner, every request answered',
      pass: serverErrors === 0 && unanswered === 0,
      detail:
        `${serverErrors} 5xx, ${unanswered} without an answer, ${not2xx} not 2xx in all; ` +
        kinds.map((k) => `${k.request} ${JSON.stringify(k.statuses)}`).join(', '),
    },
    {
      target: 'the server alive afterwards',
      pass: alive,
      detail: alive
        ? `running 5 s after, GET /api/health ${item.healthAfter ?? 'unanswered'}`
        : `gone: ${item.serverExit ?? 'died'}`,
    },
    {
      // A fall below where it started is memory given back, not kept: only growth counts.
      target: `RSS 5 s after within ${RSS_AFTER_MB} MB of where it started`,
      pass: Number.isFinite(growthMB) && growthMB <= RSS_AFTER_MB,
      detail:
        item.rssAfter5sMiB === null
          ? `no server to measure (${fmt(item.rssBeforeMiB)} MiB before)`
          : `${growthMB >= 0 ? '+' : ''}${fmt(growthMB)} MB (${fmt(item.rssBeforeMiB)} MiB -> peak ${fmt(item.rssPeakMiB)} ` +
            `-> ${fmt(item.rssAfter5sMiB)} MiB 5 s after)`,
    },
  ];
}

const mark = (target: Target | undefined) => (target ? (target.pass ? 'PASS' : '**FAIL**') : '');

const status = (s: ItemStatus) => (typeof s === 'number' ? String(s) : s);

/**
 * A Markdown table of the items, each target's PASS or FAIL beside its figure: the answer and its
 * time, the other runner's slowest (and p99) write, read and health in ms, their answers outside
 * 2xx (5xx apart), whether the server lived, and its RSS before, at its peak and 5 s after.
 */
export function othersTable(items: OthersItem[]): string[] {
  const lines = [
    '| During | answer | s | write slowest (p99) ms | read slowest (p99) ms | health slowest (p99) ms | ' +
      'not 2xx (5xx, unanswered) | server alive | RSS MiB before / peak / 5 s after |',
    '|---|---|---:|---:|---:|---:|---:|---|---:|',
  ];
  for (const item of items) {
    const t = (prefix: string) => item.targets.find((target) => target.target.startsWith(prefix));
    const { write, read, health } = item.others;
    const kinds = [write, read, health];
    const cell = (kind: ProbeKindResult, target: Target | undefined) =>
      `${fmt(kind.slowestMs)} (${fmt(kind.p99Ms)}) ${mark(target)}`;
    const answer =
      status(item.status) +
      (item.followUp
        ? `; ${item.followUp.request} ${status(item.followUp.status)} in ${fmt(item.followUp.seconds, 1)} s`
        : '');
    const file = item.file
      ? ` (${item.file.name}, ${fmt(item.file.bytes / 1024)} KiB${item.file.dryRun ? ', dry run' : ''})`
      : '';
    lines.push(
      `| ${item.label}${file} | ${answer} | ${fmt(item.seconds, 1)} | ` +
        `${cell(write, t("the other runner's slowest write"))} | ${cell(read, t("the other runner's slowest read"))} | ` +
        `${cell(health, t("the other runner's slowest health"))} | ` +
        `${kinds.reduce((n, k) => n + k.not2xx, 0)} (${kinds.reduce((n, k) => n + k.serverErrors, 0)}, ` +
        `${kinds.reduce((n, k) => n + k.failed + k.unanswered, 0)}) ${mark(t('no 5xx'))} | ` +
        `${item.serverAlive && item.status !== 'died' ? 'yes' : 'no'} ${mark(t('the server alive'))} | ` +
        `${fmt(item.rssBeforeMiB)} / ${fmt(item.rssPeakMiB)} / ${item.rssAfter5sMiB === null ? '-' : fmt(item.rssAfter5sMiB)} ` +
        `${mark(t('RSS 5 s after'))} |`,
    );
  }
  return lines;
}
