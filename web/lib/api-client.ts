/**
 * The one HTTP client of the web app. It adds the bearer token and JSON headers,
 * sends updates and deletes as POST with `_method` (as the API's original client
 * does), parses every answer with the shared zod schema and rejects with an
 * `ApiError` carrying the server's `{message, errors}` body. It never shows
 * anything itself: the query client's global error handler decides that.
 */
import type { z } from 'zod';
import { ErrorSchema, type ErrorBody } from '../../core/schemas.js';
import { tokenStorage } from './token-storage';

export const API_BASE = '/api/v1';

export type FieldErrors = Record<string, string[]>;

export class ApiError extends Error {
  readonly status: number;
  readonly url: string;
  readonly errors: FieldErrors;

  constructor(status: number, url: string, body: ErrorBody | null) {
    super(body?.message || `Request error status: ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.url = url;
    this.errors = body?.errors ?? {};
  }
}

/** A response that arrived but does not match the contract. */
export class UnexpectedResponseError extends Error {
  readonly url: string;
  constructor(url: string) {
    super('Unexpected response from the server.');
    this.name = 'UnexpectedResponseError';
    this.url = url;
  }
}

export type QueryParams = Record<string, string | number | null | undefined>;

interface RequestOptions {
  query?: QueryParams;
  body?: Record<string, unknown>;
  signal?: AbortSignal;
}

function buildUrl(path: string, query?: QueryParams): string {
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

async function request<T>(method: 'GET' | 'POST', path: string, schema: z.ZodType<T>, options: RequestOptions = {}): Promise<T> {
  const url = buildUrl(path, options.query);
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = tokenStorage.get();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (options.body) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers,
      body: options.body ? JSON.stringify(options.body) : undefined,
      signal: options.signal,
    });
  } catch (cause) {
    if (options.signal?.aborted) throw cause;
    throw new ApiError(0, url, { message: 'The server cannot be reached. Check your connection and try again.' });
  }

  const json = await readJson(response);
  if (!response.ok) {
    const body = ErrorSchema.safeParse(json);
    throw new ApiError(response.status, url, body.success ? body.data : null);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new UnexpectedResponseError(url);
  return parsed.data;
}

export const api = {
  get<T>(path: string, schema: z.ZodType<T>, options?: { query?: QueryParams; signal?: AbortSignal }) {
    return request('GET', path, schema, options);
  },
  post<T>(path: string, schema: z.ZodType<T>, body: Record<string, unknown> = {}) {
    return request('POST', path, schema, { body });
  },
  /** An update, sent as POST with `_method: 'PUT'`. */
  put<T>(path: string, schema: z.ZodType<T>, body: Record<string, unknown>) {
    return request('POST', path, schema, { body: { ...body, _method: 'PUT' } });
  },
  /** A delete, sent as POST with `_method: 'DELETE'`. */
  delete<T>(path: string, schema: z.ZodType<T>) {
    return request('POST', path, schema, { body: { _method: 'DELETE' } });
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
