/** SQL for the mail outbox (migration 029): mails waiting to be sent. Rows never leave this file. */
import type { Executor } from '../../db/schema.js';

export interface OutgoingMail {
  recipient: string;
  subject: string;
  text: string;
  html: string;
}

export interface QueuedMail extends OutgoingMail {
  id: number;
  attempts: number;
}

export async function insertMail(db: Executor, mail: OutgoingMail, nowIso: string): Promise<void> {
  await db
    .insertInto('mail_outbox')
    .values({
      recipient: mail.recipient,
      subject: mail.subject,
      text_body: mail.text,
      html_body: mail.html,
      next_attempt_at: nowIso,
      created_at: nowIso,
    })
    .execute();
}

/** The ids of mails due by `nowIso`, oldest first. */
export async function dueMails(db: Executor, nowIso: string, limit: number): Promise<{ id: number; due: string }[]> {
  const rows = await db
    .selectFrom('mail_outbox')
    .select(['id', 'next_attempt_at'])
    .where('next_attempt_at', '<=', nowIso)
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ id: Number(row.id), due: row.next_attempt_at }));
}

/**
 * Claims a due mail for one sender: moves its next attempt to `leaseUntilIso` only if nobody
 * else moved it since it was read (another process sharing the database), and counts the attempt.
 */
export async function claimMail(
  db: Executor,
  id: number,
  due: string,
  leaseUntilIso: string,
): Promise<QueuedMail | null> {
  const row = await db
    .updateTable('mail_outbox')
    .set((eb) => ({ next_attempt_at: leaseUntilIso, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('next_attempt_at', '=', due)
    .returningAll()
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: Number(row.id),
    recipient: row.recipient,
    subject: row.subject,
    text: row.text_body,
    html: row.html_body,
    attempts: Number(row.attempts),
  };
}

export async function deleteMail(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('mail_outbox').where('id', '=', id).execute();
}

export async function postponeMail(db: Executor, id: number, nextAttemptIso: string): Promise<void> {
  await db.updateTable('mail_outbox').set({ next_attempt_at: nextAttemptIso }).where('id', '=', id).execute();
}
