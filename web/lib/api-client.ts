/**
 * The one HTTP client of the web app. It adds the bearer token and JSON headers,
 * sends updates and deletes as POST with `_method` (as the API's original client
 * does), checks every answer against the contract and rejects with an
 * `ApiError` carrying the server's `{message, errors}` body. It never shows
 * anything itself: the query client's global error handler decides that.
 *
 * The check is a zod schema of `core/schemas.ts` or, for the answers needed
 * before the first screen, a guard of `response-guards.ts`, so that zod is not
 * part of the first download. This module imports nothing from zod at runtime.
 */
import type { ErrorBody } from '../../core/schemas.js';
// Its messages are shell's (the first load's): imported here so that they are there before any screen.
import 'virtual:i18n/shell';
import { requestLanguage, t } from '../i18n/runtime';
import { parseErrorBody } from './response-guards';
import { tokenStorage } from './token-storage';

export const API_BASE = '/api/v1';

export type FieldErrors = Record<string, string[]>;

/** The message of a request that never reached the server (also the downloads', download.ts). */
export const unreachableMessage = () => t('shell.api.unreachable');

export class ApiError extends Error {
  readonly status: number;
  readonly url: string;
  readonly errors: FieldErrors;

  constructor(status: number, url: string, body: ErrorBody | null) {
    super(body?.message || t('shell.api.status', { status }));
    this.name = 'ApiError';
    this.status = status;
    this.url = url;
    this.errors = body?.errors ?? {};
  }
}

/** A response that arrived but does not match the contract; `cause` tells what was wrong. */
export class UnexpectedResponseError extends Error {
  readonly url: string;
  constructor(url: string, cause?: unknown) {
    super(t('shell.api.unexpected'), { cause });
    this.name = 'UnexpectedResponseError';
    this.url = url;
  }
}

/**
 * How an answer is checked: a function that returns the typed value or throws
 * (the guards of `response-guards.ts`), or anything with such a `parse` method
 * (a zod schema).
 */
export type ResponseParser<T> = ((json: unknown) => T) | { parse(json: unknown): T };

function parseWith<T>(parser: ResponseParser<T>, json: unknown): T {
  return typeof parser === 'function' ? parser(json) : parser.parse(json);
}

export type QueryParams = Record<string, string | number | null | undefined>;

interface RequestOptions {
  query?: QueryParams;
  body?: Record<string, unknown>;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

export function buildUrl(path: string, query?: QueryParams): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const search = params.toString();
  return `${API_BASE}${path}${search ? `?${search}` : ''}`;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** A request's headers: JSON, the app's language (the server answers its messages in it, §19), the token. */
export function requestHeaders(more?: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = { ...more, Accept: 'application/json', 'Accept-Language': requestLanguage() };
  const token = tokenStorage.get();
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}

/**
 * Answers asked for before the code that reads them had come (app/first-answers.ts), by URL: each is
 * taken by the first GET of its URL sent with the same headers, instead of asking again.
 */
export const earlyAnswers = new Map<string, { headers: string; response: Promise<Response> }>();

async function request<T>(
  method: 'GET' | 'POST',
  path: string,
  parser: ResponseParser<T>,
  options: RequestOptions = {},
): Promise<T> {
  const url = buildUrl(path, options.query);
  const headers = requestHeaders(options.headers);
  if (options.body) headers['Content-Type'] = 'application/json';
  const early = method === 'GET' ? earlyAnswers.get(url) : undefined;
  if (early) earlyAnswers.delete(url);

  let response: Response;
  let json: unknown;
  try {
    response = await (early && early.headers === JSON.stringify(headers)
      ? early.response
      : fetch(url, {
          method,
          headers,
          body: options.body ? JSON.stringify(options.body) : undefined,
          signal: options.signal,
        }));
    // The body too: an answer cut off half-way (the connection lost, the page left) is as unreachable
    // as one never received, and must not read as the server's refusal (a session check would end the session).
    json = await readJson(response);
  } catch (cause) {
    if (options.signal?.aborted) throw cause;
    throw new ApiError(0, url, { message: unreachableMessage() });
  }

  if (!response.ok) throw new ApiError(response.status, url, errorBodyOf(json));
  try {
    return parseWith(parser, json);
  } catch (cause) {
    throw new UnexpectedResponseError(url, cause);
  }
}

/** The `{message, errors}` of a failed request, or null when the body has another shape. */
function errorBodyOf(json: unknown): ErrorBody | null {
  try {
    return parseErrorBody(json);
  } catch {
    return null;
  }
}

export const api = {
  get<T>(path: string, parser: ResponseParser<T>, options?: { query?: QueryParams; signal?: AbortSignal }) {
    return request('GET', path, parser, options);
  },
  /** `headers`: what the call adds (an `Idempotency-Key`). */
  post<T>(
    path: string,
    parser: ResponseParser<T>,
    body: Record<string, unknown> = {},
    headers?: Record<string, string>,
  ) {
    return request('POST', path, parser, headers ? { body, headers } : { body });
  },
  /** An update, sent as POST with `_method: 'PUT'`. */
  put<T>(path: string, parser: ResponseParser<T>, body: Record<string, unknown>) {
    return request('POST', path, parser, { body: { ...body, _method: 'PUT' } });
  },
  /** A delete, sent as POST with `_method: 'DELETE'`. */
  delete<T>(path: string, parser: ResponseParser<T>) {
    return request('POST', path, parser, { body: { _method: 'DELETE' } });
  },
};

/** The per-field errors of a failed submission, or none. */
export function fieldErrorsOf(error: unknown): FieldErrors {
  return error instanceof ApiError ? error.errors : {};
}

/** The URL a failed request went to, when known. */
export function failedUrlOf(error: unknown): string | null {
  if (error instanceof ApiError || error instanceof UnexpectedResponseError) return error.url;
  return null;
}
