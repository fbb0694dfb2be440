import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import fastJson from 'fast-json-stringify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ImportEnvelopeSchema,
  ImportMappingSchema,
  ImportRowSchema,
  type ImportMapping,
  type ImportRow,
} from '../../../core/imports.js';
import type { Language } from '../../../core/i18n/languages.js';
import { reasonCode, translate } from '../../../core/i18n/server/translate.js';
import { ErrorSchema } from '../../../core/schemas.js';
import type { AppContext } from '../../context.js';
import { AppError, invalid } from '../../errors.js';
import { sessionOf } from '../../http/authenticate.js';
import { requestLanguage } from '../../http/language.js';
import { responseJsonSchema } from '../../http/serializer.js';
import { importRuns, type ImportSummary, type UploadedFile } from './imports.service.js';

/** At most this many files in one request (an archive counts as one). */
const MAX_FILES = 1000;
/** At most this many form fields besides the files: dry_run, mapping, and an `exclude` per row left out. */
export const MAX_FIELDS = 10_000;
/** Bytes of a form field, and of all of them together (they are held in memory, the files are not). */
const MAX_FIELD_BYTES = 64 * 1024;
const MAX_FIELDS_BYTES = 1024 * 1024;

/** The name of an upload's own folder: the process that owns it can be told from it (start-up clean-up). */
const UPLOAD_PREFIX = 'running-times-import-';

const mib = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;

interface Upload {
  /** A folder of its own in the system's temporary folder: removed by the caller once the import is done. */
  dir: string;
  files: UploadedFile[];
  dryRun: boolean;
  mapping: ImportMapping | undefined;
  exclude: string[];
}

/**
 * Reads the multipart request, each file straight to a file of its own on disk (memory does
 * not grow with the upload), counting every byte: past `max` it stops with a 413.
 */
async function readUpload(request: FastifyRequest, max: number): Promise<Upload> {
  const tooLarge = () =>
    new AppError(413, `The upload is larger than the import limit of ${mib(max)}: send fewer or smaller files.`);
  if (!request.isMultipart()) {
    throw new AppError(415, 'Send the files as multipart/form-data, each in a field named "file".');
  }
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), `${UPLOAD_PREFIX}${process.pid}-`));
  try {
    return await readParts(request, max, dir, tooLarge);
  } catch (error) {
    await removeUpload(dir);
    throw error;
  }
}

async function readParts(request: FastifyRequest, max: number, dir: string, tooLarge: () => AppError): Promise<Upload> {
  const files: UploadedFile[] = [];
  const fields: Record<string, string> = {};
  const exclude: string[] = [];
  let total = 0;
  let fieldBytes = 0;
  const count = async function* (chunks: AsyncIterable<Buffer>) {
    for await (const chunk of chunks) {
      total += chunk.length;
      if (total > max) throw tooLarge();
      yield chunk;
    }
  };
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (part.valueTruncated) {
          throw invalid(
            part.fieldname,
            `The ${part.fieldname} field must not be larger than ${MAX_FIELD_BYTES / 1024} KB.`,
          );
        }
        const value = String(part.value);
        fieldBytes += Buffer.byteLength(value);
        if (fieldBytes > MAX_FIELDS_BYTES) {
          throw new AppError(
            413,
            `The form fields must not be larger than ${MAX_FIELDS_BYTES / 1024 / 1024} MiB in all.`,
          );
        }
        if (part.fieldname === 'exclude') exclude.push(value);
        else fields[part.fieldname] = value;
        continue;
      }
      const file = path.join(dir, String(files.length));
      await pipeline(part.file, count, fs.createWriteStream(file));
      if (part.file.truncated) throw tooLarge();
      files.push({ name: part.filename || part.fieldname || 'file', path: file });
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: string }).code ?? '';
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    if (code === 'FST_FILES_LIMIT') throw new AppError(413, `Send at most ${MAX_FILES} files at once.`);
    if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') {
      throw new AppError(
        413,
        `Send at most ${MAX_FILES} files and ${MAX_FIELDS.toLocaleString('en')} other form fields at once.`,
      );
    }
    throw new AppError(400, 'The upload is not valid multipart/form-data (cut short or malformed).');
  }
  if (files.length === 0) throw invalid('file', 'Choose at least one file to import.');
  let mapping: ImportMapping | undefined;
  if (fields.mapping !== undefined && fields.mapping.trim() !== '') {
    let raw: unknown;
    try {
      raw = JSON.parse(fields.mapping);
    } catch {
      throw invalid('mapping', 'The mapping must be a JSON object.');
    }
    const parsed = ImportMappingSchema.safeParse(raw);
    if (!parsed.success) throw invalid('mapping', parsed.error.issues[0]?.message ?? 'The mapping is not valid.');
    mapping = parsed.data;
  }
  const dryRun = ['1', 'true', 'yes', 'on'].includes((fields.dry_run ?? '').toLowerCase());
  return { dir, files, dryRun, mapping, exclude };
}

/**
 * An upload's folder, removed: retried while a file in it is still being closed or the process
 * is short of file handles (many imports at once); one that still resists is left to the next
 * start (removeLeftUploads), never to fail the request.
 */
async function removeUpload(dir: string): Promise<void> {
  await fs.promises.rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }).catch(() => undefined);
}

/**
 * Upload folders that no running server owns any more (a server stopped or killed during an
 * import): removed when the imports start. A folder names its process; one of a process that
 * is gone, or of an older version that named none and is over an hour old, is left over.
 */
export async function removeLeftUploads(): Promise<number> {
  const root = os.tmpdir();
  let removed = 0;
  for (const name of await fs.promises.readdir(root).catch(() => [] as string[])) {
    if (!name.startsWith(UPLOAD_PREFIX)) continue;
    const folder = path.join(root, name);
    const pid = /^(\d+)-/.exec(name.slice(UPLOAD_PREFIX.length))?.[1];
    const left = pid === undefined ? await olderThanAnHour(folder) : !isAlive(Number(pid));
    if (!left) continue;
    await removeUpload(folder);
    removed += 1;
  }
  return removed;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists, as another user's.
    return (error as { code?: string }).code === 'EPERM';
  }
}

async function olderThanAnHour(folder: string): Promise<boolean> {
  const stat = await fs.promises.stat(folder).catch(() => null);
  return stat !== null && Date.now() - stat.mtimeMs > 3_600_000;
}

const rowJson = fastJson(responseJsonSchema(ImportRowSchema));

/**
 * The answer's text, a piece at a time: the same text as the serializer of ImportEnvelopeSchema
 * writes (each row by that schema's own row serializer), never the whole of it at once. The
 * upload's folder (where the import keeps its rows) is removed once the answer is written or given up.
 */
async function* answer(summary: ImportSummary, dir: string, lang: Language): AsyncGenerator<string> {
  try {
    let chunk = `{"import":{"created":${summary.created},"duplicates":${summary.duplicates},"skipped":${summary.skipped},"tracks_added":${summary.tracksAdded},"rows":[`;
    let first = true;
    for await (const row of summary.rows()) {
      const json = rowJson(withReasonIn(lang, row));
      chunk += first ? json : `,${json}`;
      first = false;
      if (chunk.length >= 64 * 1024) {
        yield chunk;
        chunk = '';
      }
    }
    yield `${chunk}]}}`;
  } finally {
    await letGo(summary, dir);
  }
}

/** The import's rows and its folder, once the answer is written or the client is gone (again: nothing). */
async function letGo(summary: ImportSummary, dir: string): Promise<void> {
  summary.close();
  await removeUpload(dir);
}

/** A row's reason in the request's language, and its code, the same in every language (§19). */
function withReasonIn(lang: Language, row: ImportRow): ImportRow {
  if (row.reason === undefined) return row;
  return { ...row, reason: translate(row.reason, lang), reason_code: reasonCode(row.reason) };
}

/** With verifyResponses (the tests), the answer must be exactly what its schema gives. */
async function verified(summary: ImportSummary, dir: string, lang: Language): Promise<string[]> {
  let text = '';
  for await (const chunk of answer(summary, dir, lang)) text += chunk;
  const expected = JSON.stringify(ImportEnvelopeSchema.parse(JSON.parse(text)));
  if (text !== expected) throw new Error(`The import's answer ${text} differs from its schema's ${expected}`);
  return [text];
}

export function importsRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const max = ctx.config.importMaxBytes;
    await removeLeftUploads();
    await app.register(multipart, {
      limits: {
        fileSize: max,
        files: MAX_FILES,
        parts: MAX_FILES + MAX_FIELDS,
        fields: MAX_FIELDS,
        fieldSize: MAX_FIELD_BYTES,
      },
    });
    const typed = app.withTypeProvider<ZodTypeProvider>();
    const security = [{ bearerAuth: [] }];
    const errors = {
      400: ErrorSchema,
      401: ErrorSchema,
      403: ErrorSchema,
      413: ErrorSchema,
      415: ErrorSchema,
      422: ErrorSchema,
    };

    typed.post('/import', {
      onRequest: [
        app.requireAuth,
        async (request) => {
          // A declared size over the limit is refused before a byte of the body is read.
          const declared = Number(request.headers['content-length'] ?? 0);
          if (declared > max) {
            throw new AppError(
              413,
              `The upload is larger than the import limit of ${mib(max)}: send fewer or smaller files.`,
            );
          }
        },
      ],
      schema: {
        tags: ['import and export'],
        summary:
          'Import runs from FIT, TCX, GPX, CSV or JSON files or zip archives (multipart/form-data: file parts, dry_run=1, mapping)',
        description:
          'Fields: one or more `file` parts; `dry_run=1` to preview without storing (200); `mapping` (JSON) for a CSV this server does not recognise; `exclude` (once per row, its `source`) to leave rows out.',
        consumes: ['multipart/form-data'],
        security,
        response: { 200: ImportEnvelopeSchema, 201: ImportEnvelopeSchema, ...errors },
      },
      handler: async (request, reply) => {
        const upload = await readUpload(request, max);
        // The client may go while the import runs (its socket closed): its folder goes with the import.
        let gone = false;
        reply.raw.once('close', () => {
          gone = true;
        });
        let summary: ImportSummary;
        try {
          const { user } = sessionOf(request);
          summary = await importRuns(ctx, user, upload.files, {
            dryRun: upload.dryRun,
            mapping: upload.mapping,
            exclude: upload.exclude,
            workDir: upload.dir,
          });
        } catch (error) {
          await removeUpload(upload.dir);
          throw error;
        }
        if (gone) {
          await letGo(summary, upload.dir);
          return reply;
        }
        // Streamed: an import of 100,000 rows answers them all without holding the text at once.
        const lang = requestLanguage(request);
        const text = ctx.config.verifyResponses
          ? await verified(summary, upload.dir, lang)
          : answer(summary, upload.dir, lang);
        // A client gone before the answer starts: the answer's own clean-up would never run.
        reply.raw.once('close', () => void letGo(summary, upload.dir));
        void reply
          .code(upload.dryRun ? 200 : 201)
          .header('content-type', 'application/json; charset=utf-8')
          // One chunk read ahead at most: rows are made as the socket takes them, not queued.
          .send(Readable.from(text, { highWaterMark: 1 }) as never);
        return reply;
      },
    });
  };
}
