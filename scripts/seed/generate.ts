/**
 * Realistic, reproducible fake data for `npm run seed`: runners with a name, a time zone,
 * an account created within the last year and a history of runs over several years.
 * Everything comes from one seeded generator, so the same options give the same data.
 */
import { addDays, dateInZone } from '../../core/time.js';

export type Random = () => number;

/** A small, fast 32-bit generator (mulberry32) with a fixed seed. */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const words = (text: string) => text.trim().split(/\s+/);

const FIRST_NAMES = words(`
  Anna Ben Clara David Elena Felix Grace Hugo Ines Jonas Karin Lukas Maria Noah Olivia Paul Quentin
  Rosa Samuel Tara Umar Vera William Xenia Yusuf Zoe Amelie Bruno Chloe Daniel Emma Finn Hannah Ivan
  Julia Kenji Lea Mateo Nina Oscar Priya Rafael Sofia Tom Valentina Wei Yara Aiko Marek Sara
`);
const LAST_NAMES = words(`
  Schmidt Miller Garcia Rossi Novak Kowalski Dubois Jensen Silva Tanaka Smith Johnson Brown Martin
  Bernard Weber Wagner Becker Hoffmann Costa Fischer Lopez Gonzalez Nielsen Larsen Virtanen Horvat
  Popescu Ivanova Kim Nakamura Patel Singh O'Brien Murphy Walsh Moreau Fontaine Ricci Esposito
`);
const TIME_ZONES = words(`
  UTC UTC Europe/Berlin Europe/Berlin Europe/London Europe/Paris America/New_York America/Chicago
  America/Los_Angeles Asia/Tokyo Australia/Sydney America/Sao_Paulo
`);

const DAY_MS = 86_400_000;

/** How many years of runs a history covers at most. */
export const HISTORY_YEARS = 5;
export const MIN_DISTANCE_M = 2_000;
export const MAX_DISTANCE_M = 42_195;
/** Paces a runner's runs stay within, in seconds per km (3:00 to 9:00 min/km). */
export const MIN_PACE_S_PER_KM = 180;
export const MAX_PACE_S_PER_KM = 540;

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

export interface SeedUser {
  /** The n of `user{n}@example.com`. */
  number: number;
  name: string;
  email: string;
  timezone: string;
  createdAt: string;
  entryCount: number;
  /** The runner's usual pace on an easy 10 km, in seconds per km. */
  basePace: number;
  /** How many days back their history starts. */
  historyDays: number;
}

/**
 * Splits `entries` over `users` runners with unequal activity (a few run a lot, most run
 * a little), summing exactly to `entries`.
 */
export function entryCounts(random: Random, users: number, entries: number): number[] {
  if (users === 0) return [];
  const weights = Array.from({ length: users }, () => {
    // Roughly log-normal activity: the busiest runners log several times the average.
    const gauss = random() + random() + random() - 1.5;
    return Math.exp(gauss * 0.9);
  });
  const total = weights.reduce((a, b) => a + b, 0);
  const counts = weights.map((w) => Math.floor((w / total) * entries));
  let missing = entries - counts.reduce((a, b) => a + b, 0);
  for (let i = 0; missing > 0; i = (i + 1) % users, missing--) counts[i]! += 1;
  return counts;
}

/** Users `user{first}` .. `user{first + count - 1}`, created over the year before `now`, oldest first. */
export function generateUsers(random: Random, now: Date, first: number, counts: number[]): SeedUser[] {
  const nowMs = now.getTime();
  const createdMs = counts.map(() => nowMs - Math.floor(random() * 365 * DAY_MS)).sort((a, b) => a - b);
  return counts.map((entryCount, index) => {
    const number = first + index;
    return {
      number,
      name: `${pick(random, FIRST_NAMES)} ${pick(random, LAST_NAMES)}`,
      email: `user${number}@example.com`,
      timezone: pick(random, TIME_ZONES),
      createdAt: new Date(createdMs[index]!).toISOString(),
      entryCount,
      basePace: 250 + Math.floor(random() * 170),
      historyDays: Math.floor((0.5 + random() * (HISTORY_YEARS - 0.5)) * 365),
    };
  });
}

export interface SeedEntry {
  date: string;
  distanceM: number;
  seconds: number;
  /** km/h, computed exactly as the server computes it. */
  speed: number;
  createdAt: string;
}

const RACES_M = [5_000, 10_000, 21_098, 42_195];

function distanceOf(random: Random): number {
  const kind = random();
  let metres: number;
  if (kind < 0.1) metres = 2_000 + random() * 3_000;
  else if (kind < 0.55) metres = 5_000 + random() * 5_000;
  else if (kind < 0.8) metres = 10_000 + random() * 6_000;
  else if (kind < 0.93) metres = 16_000 + random() * 16_000;
  else metres = pick(random, RACES_M);
  return Math.min(MAX_DISTANCE_M, Math.max(MIN_DISTANCE_M, Math.round(metres)));
}

/** The server's own formula, so that generated speeds equal what the API would store. */
export function speedOf(distanceM: number, seconds: number): number {
  return (distanceM * 36) / (seconds * 10);
}

const dayCache = new Map<number, string>();

/** `YYYY-MM-DD` of a UTC day number (days since 1970-01-01), cached: a history has few distinct days. */
function dayString(day: number): string {
  let text = dayCache.get(day);
  if (text === undefined) {
    text = new Date(day * DAY_MS).toISOString().slice(0, 10);
    dayCache.set(day, text);
  }
  return text;
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/** The same text as `new Date(ms).toISOString()`, without building a Date per run. */
function isoInstant(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  let rest = ms - day * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  return `${dayString(day)}T${pad2(hours)}:${pad2(minutes)}:${pad2(seconds)}.${String(millis).padStart(3, '0')}Z`;
}

/** A runner's runs, oldest first, none after today in their zone. */
export function generateEntries(random: Random, user: SeedUser, now: Date): SeedEntry[] {
  const offsets: number[] = [];
  for (let i = 0; i < user.entryCount; i++) offsets.push(Math.floor(random() * (user.historyDays + 1)));
  offsets.sort((a, b) => a - b);
  return runsOnDays(random, user, now, offsets);
}

/** The long-history runner's runs: one a day, today included. */
export const LONG_HISTORY_RUNS = HISTORY_YEARS * 365 + 1;

/**
 * The runner with the longest history: a run every day of the five years up to today, so that
 * insights over a whole history are measured at their worst. Its own generator: the other runners'
 * data stays the same with or without it.
 */
export function longHistoryRunner(number: number, now: Date): { user: SeedUser; runs: SeedEntry[] } {
  const random = createRandom(5 * 365);
  const historyDays = HISTORY_YEARS * 365;
  const user: SeedUser = {
    number,
    name: 'Lena Longrun',
    email: `user${number}@example.com`,
    timezone: 'Europe/Berlin',
    createdAt: new Date(now.getTime() - 300 * DAY_MS).toISOString(),
    entryCount: LONG_HISTORY_RUNS,
    basePace: 300,
    historyDays,
  };
  return {
    user,
    runs: runsOnDays(
      random,
      user,
      now,
      Array.from({ length: historyDays + 1 }, (_, day) => day),
    ),
  };
}

/** One run on each day `offsets` names (days after the first day of the history, ascending). */
function runsOnDays(random: Random, user: SeedUser, now: Date, offsets: number[]): SeedEntry[] {
  const today = dateInZone(now, user.timezone);
  const firstDay = Math.round(Date.parse(`${addDays(today, -user.historyDays)}T00:00:00Z`) / DAY_MS);
  const signedUpMs = Date.parse(user.createdAt);
  const nowMs = now.getTime();
  return offsets.map((offset) => {
    const day = firstDay + offset;
    const distanceM = distanceOf(random);
    // Longer runs are slower; every run varies a little around the runner's usual pace.
    const fatigue = 1 + 0.06 * Math.log2(distanceM / 10_000);
    const pace = Math.min(
      MAX_PACE_S_PER_KM,
      Math.max(MIN_PACE_S_PER_KM, user.basePace * fatigue * (0.93 + random() * 0.14)),
    );
    const seconds = Math.max(1, Math.round((distanceM / 1000) * pace));
    // Logged the evening of the run, or at sign-up for runs imported from before it.
    const loggedMs = day * DAY_MS + Math.floor((17 + random() * 5) * 3_600_000);
    const createdMs = Math.min(nowMs, Math.max(signedUpMs + offset * 1000, loggedMs));
    return {
      date: dayString(day),
      distanceM,
      seconds,
      speed: speedOf(distanceM, seconds),
      createdAt: isoInstant(createdMs),
    };
  });
}
