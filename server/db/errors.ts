/** What database errors mean to the app: unreachable (a 503), a broken start, a taken unique value. */

export class DatabaseOpenError extends Error {}

/** One sentence an operator can act on, for each way opening a SQLite file fails. */
export function sqliteOpenMessage(file: string, error: unknown): string {
  const code = String((error as { code?: unknown })?.code ?? '');
  const reason = (error as Error)?.message ?? String(error);
  const is = (primary: string) => code === primary || code.startsWith(`${primary}_`);
  if (is('SQLITE_BUSY') || is('SQLITE_LOCKED')) {
    return `The SQLite database ${file} is locked by another process (another server on the same file?); stop it or set DATABASE_URL to another file.`;
  }
  if (is('SQLITE_READONLY') || is('SQLITE_PERM') || is('SQLITE_CANTOPEN') || code === 'EACCES' || code === 'EROFS') {
    return `The SQLite database ${file} cannot be opened for writing (${reason}); the server needs write access to the file and to its folder.`;
  }
  if (is('SQLITE_NOTADB') || is('SQLITE_CORRUPT')) {
    return `The file ${file} is not a usable SQLite database (${reason}); restore it from a backup (see README.md, Backups).`;
  }
  return `Cannot open the SQLite database ${file}: ${reason}`;
}

/** SQLite faults of the file or the disk, not of the request: locked, unreadable, read-only, full. */
const SQLITE_UNAVAILABLE = [
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_CANTOPEN',
  'SQLITE_IOERR',
  'SQLITE_READONLY',
  'SQLITE_FULL',
];

/** Errors that mean the database cannot be reached (or written) right now. */
export function isDatabaseDown(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  if (typeof code !== 'string') {
    const message = (error as Error)?.message ?? '';
    return /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout/.test(
      message,
    );
  }
  if (code.startsWith('SQLITE_')) {
    // Extended codes (SQLITE_IOERR_FSYNC, SQLITE_BUSY_TIMEOUT, ...) share their primary code's prefix.
    return SQLITE_UNAVAILABLE.some((primary) => code === primary || code.startsWith(`${primary}_`));
  }
  return (
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND'].includes(code) ||
    code.startsWith('08') || // connection exception
    code.startsWith('57P') || // admin shutdown, crash shutdown, cannot connect now
    code === '53300' // too many connections
  );
}

/** A unique constraint refused the write (PostgreSQL 23505, SQLite SQLITE_CONSTRAINT_UNIQUE). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return code === '23505' || (typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT_UNIQUE'));
}

/** A foreign key refused the write: what it points at was deleted meanwhile (PostgreSQL 23503). */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/**
 * PostgreSQL ended the transaction to break a deadlock (40P01) or a serialization conflict (40001):
 * nothing of it was written, and running it again succeeds. Writes of different runners meet on
 * shared tally rows (days, months, counters) in orders no lock order can fix for every write (a
 * runner's deletion touches all their days at once), so such a transaction is run again.
 */
export function isTransactionConflict(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return code === '40P01' || code === '40001';
}
