/**
 * PostgreSQL: the admin dashboard counts the users of a partial hour (an instant off the
 * whole hour, in a zone such as UTC+05:30) by that hour and a range of creation times
 * (tallies.ts signupTotals). Its plan for any values guessed the range alone at 0.5% of the
 * users and cost more than planning each request, so the dashboard was planned on every
 * request (0.61-0.69 ms a call at 100,000 users, 1,031 custom plans and no generic one). With
 * the hour indexed, that plan reads one hour's users, and is kept (0.37-0.40 ms, 1,026
 * generic plans). SQLite plans each statement once whatever its values.
 *
 * Frozen as released: never edit this file (checksums.json); change the schema in a new step.
 */
export const statements = {
  sqlite: [],
  postgres: [`create index users_created_hour_idx on users (substr(created_at, 1, 13), created_at)`],
};
