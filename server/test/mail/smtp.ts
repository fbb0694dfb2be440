/**
 * A real SMTP server in the test process (smtp-server): it takes every mail the app sends and
 * reads it back with mailparser, so tests follow the links the way a person would.
 */
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  /** The link's token from `#token=...` in the text, or null. */
  token: string | null;
  /** The first absolute link of the text. */
  link: string | null;
}

export interface TestSmtp {
  url: string;
  mails: ReceivedMail[];
  /** When true, every mail is refused with a temporary failure (the app must retry). */
  refuse: boolean;
  /** Waits for the next mail to `to` not yet taken by an earlier call. */
  next(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  /** Mails to `to` so far. */
  to(address: string): ReceivedMail[];
  close(): Promise<void>;
}

export async function startSmtp(): Promise<TestSmtp> {
  const mails: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  const state = { refuse: false };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          if (state.refuse) {
            const error = new Error('Try again later') as Error & { responseCode: number };
            error.responseCode = 451;
            return callback(error);
          }
          const text = parsed.text ?? '';
          const to = Array.isArray(parsed.to) ? parsed.to[0]?.text : parsed.to?.text;
          mails.push({
            to: (to ?? '').toLowerCase(),
            from: parsed.from?.text ?? '',
            subject: parsed.subject ?? '',
            text,
            html: typeof parsed.html === 'string' ? parsed.html : '',
            token: /#token=([A-Za-z0-9_-]+)/.exec(text)?.[1] ?? null,
            link: /https?:\/\/\S+/.exec(text)?.[0] ?? null,
          });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    get refuse() {
      return state.refuse;
    },
    set refuse(value: boolean) {
      state.refuse = value;
    },
    to: (address) => mails.filter((m) => m.to === address.toLowerCase()),
    async next(to, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = mails.find((m) => m.to === to.toLowerCase() && !taken.has(m));
        if (found) {
          taken.add(found);
          return found;
        }
        if (Date.now() > deadline) {
          throw new Error(`No mail to ${to} within ${timeoutMs} ms (received: ${mails.map((m) => m.to).join(', ')})`);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
