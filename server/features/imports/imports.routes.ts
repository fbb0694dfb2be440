import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import fastJson from 'fast-json-stringify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ExportQuerySchema,
  ImportEnvelopeSchema,
  ImportMappingSchema,
  ImportRowSchema,
  type ImportMapping,
} from '../../../core/imports.js';
import { ErrorSchema } from '../../../core/schemas.js';
import { dateInZone } from '../../../core/time.js';
import type { AppContext } from '../../context.js';
import { AppError, invalid } from '../../errors.js';
import { sessionOf } from '../../http/authenticate.js';
import { responseJsonSchema } from '../../http/serializer.js';
import { exportCsv, exportJson, importRuns, type ImportSummary, type UploadedFile } from './imports.service.js';

/** At most this many files in one request (an archive counts as one). */
const MAX_FILES = 1000;

const mib = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;

interface Upload {
  /** A folder of its own in the system's temporary folder: removed by the caller once the import is done. */
  dir: string;
  files: UploadedFile[];
  dryRun: boolean;
  mapping: ImportMapping | undefined;
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
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'running-times-import-'));
  try {
    return await readParts(request, max, dir, tooLarge);
  } catch (error) {
    await fs.promises.rm(dir, { recursive: true, force: true });
    throw error;
  }
}

async function readParts(request: FastifyRequest, max: number, dir: string, tooLarge: () => AppError): Promise<Upload> {
  const files: UploadedFile[] = [];
  const fields: Record<string, string> = {};
  let total = 0;
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
        fields[part.fieldname] = String(part.value);
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
    if (code === 'FST_REQ_FILE_TOO_LARGE' || code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT') {
      throw new AppError(
        413,
        code === 'FST_REQ_FILE_TOO_LARGE' ? tooLarge().message : `Send at most ${MAX_FILES} files at once.`,
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
  return { dir, files, dryRun, mapping };
}

const rowJson = fastJson(responseJsonSchema(ImportRowSchema));

/**
 * The answer's text, a piece at a time: the same text as the serializer of ImportEnvelopeSchema
 * writes (each row by that schema's own row serializer), never the whole of it at once. The
 * upload's folder (where the import keeps its rows) is removed once the answer is written or given up.
 */
async function* answer(summary: ImportSummary, dir: string): AsyncGenerator<string> {
  try {
    let chunk = `{"import":{"created":${summary.created},"duplicates":${summary.duplicates},"skipped":${summary.skipped},"rows":[`;
    let first = true;
    for await (const row of summary.rows()) {
      chunk += first ? rowJson(row) : `,${rowJson(row)}`;
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

/** The import's rows and its folder, once the answer is written or the client is gone. */
async function letGo(summary: ImportSummary, dir: string): Promise<void> {
  summary.close();
  await fs.promises.rm(dir, { recursive: true, force: true });
}

/** With verifyResponses (the tests), the answer must be exactly what its schema gives. */
async function verified(summary: ImportSummary, dir: string): Promise<string[]> {
  let text = '';
  for await (const chunk of answer(summary, dir)) text += chunk;
  const expected = JSON.stringify(ImportEnvelopeSchema.parse(JSON.parse(text)));
  if (text !== expected) throw new Error(`The import's answer ${text} differs from its schema's ${expected}`);
  return [text];
}

export function importsRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const max = ctx.config.importMaxBytes;
    await app.register(multipart, {
      limits: { fileSize: max, files: MAX_FILES, parts: MAX_FILES + 20, fields: 20, fieldSize: 64 * 1024 },
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
          'Fields: one or more `file` parts; `dry_run=1` to preview without storing (200); `mapping` (JSON) for a CSV this server does not recognise.',
        consumes: ['multipart/form-data'],
        security,
        response: { 200: ImportEnvelopeSchema, 201: ImportEnvelopeSchema, ...errors },
      },
      handler: async (request, reply) => {
        const upload = await readUpload(request, max);
        let summary: ImportSummary;
        try {
          const { user } = sessionOf(request);
          summary = await importRuns(ctx, user, upload.files, {
            dryRun: upload.dryRun,
            mapping: upload.mapping,
            workDir: upload.dir,
          });
        } catch (error) {
          await fs.promises.rm(upload.dir, { recursive: true, force: true });
          throw error;
        }
        // Streamed: an import of 100,000 rows answers them all without holding the text at once.
        const text = ctx.config.verifyResponses ? await verified(summary, upload.dir) : answer(summary, upload.dir);
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

    typed.get('/export', {
      onRequest: app.requireAuth,
      schema: {
        tags: ['import and export'],
        summary: 'All my runs as a CSV or JSON download, streamed',
        security,
        querystring: ExportQuerySchema,
        produces: ['text/csv', 'application/json'],
        response: { 200: z.string().describe('The file'), ...errors },
      },
      handler: async (request, reply) => {
        const { user } = sessionOf(request);
        const format = request.query.format;
        const day = dateInZone(ctx.config.now(), user.timezone);
        const chunks = format === 'json' ? exportJson(ctx, user) : exportCsv(ctx, user.id);
        void reply
          .header('content-type', format === 'json' ? 'application/json; charset=utf-8' : 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="running-times-${day}.${format}"`)
          .header('cache-control', 'no-store')
          // One chunk (a page of runs) read ahead at most: the next page is read once the socket takes this one.
          .send(Readable.from(chunks, { highWaterMark: 1 }) as never);
        return reply;
      },
    });
  };
}
