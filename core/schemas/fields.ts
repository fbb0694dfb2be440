/**
 * What every resource's schemas share: zod's messages, the text and number helpers, paging,
 * the id of a path, and the error bodies.
 */
import { z } from 'zod';
import { requiredMessage } from '../messages.js';
import { brokenText, isMissing } from './internal.js';

/**
 * Messages for the checks a schema leaves to zod (a wrong type, an unknown shape): a sentence
 * naming the field, never the library's wording. Every rule of the contract has its own message.
 */
const TYPE_NAMES: Record<string, string> = {
  string: 'text',
  number: 'number',
  int: 'whole number',
  boolean: 'true or false',
  array: 'list',
  object: 'object',
};
z.config({
  customError: (issue) => {
    const field = issue.path && issue.path.length > 0 ? String(issue.path[0]) : null;
    if (!field) return 'The request body must be a JSON object.';
    if (issue.code === 'invalid_type') {
      const expected = TYPE_NAMES[String(issue.expected)] ?? String(issue.expected);
      return `The ${field} must be ${/^[aeiou]/.test(expected) ? 'an' : 'a'} ${expected}.`;
    }
    return `The ${field} is invalid.`;
  },
});

export const DEFAULT_PER_PAGE = 15;
export const MAX_PER_PAGE = 100;

export const DECIMAL_RE = /^[+-]?(\d+\.?\d*|\.\d+)$/;
export const INTEGER_RE = /^[+-]?\d+$/;

/**
 * C0 control characters and DEL. Single-line text never needs them, and PostgreSQL
 * cannot store NUL at all, so they are refused before they reach the database.
 */
export function hasNoControlCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return false;
  }
  return true;
}

/** No lone UTF-16 surrogate: such a string cannot be stored or shown as the text that was sent. */
export function isWellFormedText(text: string): boolean {
  return !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
}

/** Blank strings count as absent; other strings are trimmed. */
export function blankToUndefined(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** Numbers may arrive as strings from form-encoded bodies and query strings. */
export function toNumber(pattern: RegExp) {
  return (value: unknown): unknown => {
    const text = blankToUndefined(value);
    return typeof text === 'string' && pattern.test(text) ? Number(text) : text;
  };
}

export function requiredText(field: string, max = 255) {
  return z.preprocess(
    blankToUndefined,
    z
      .string({
        error: (issue) => (isMissing(issue.input) ? requiredMessage(field) : `The ${field} must be a string.`),
      })
      .max(max, `The ${field} must not be greater than ${max} characters.`)
      .refine(hasNoControlCharacters, `The ${field} must not contain control characters.`)
      .refine(isWellFormedText, brokenText(field)),
  );
}

function positiveInteger(field: string, max?: number) {
  const base = z
    .number({ error: `The ${field} must be an integer.` })
    .int(`The ${field} must be an integer.`)
    .min(1, `The ${field} must be at least 1.`);
  return z.preprocess(
    toNumber(INTEGER_RE),
    (max ? base.max(max, `The ${field} must not be greater than ${max}.`) : base).optional(),
  );
}

export const PageQuerySchema = z.object({
  page: positiveInteger('page'),
  per_page: positiveInteger('per_page', MAX_PER_PAGE),
});

export const IdParamsSchema = z.object({
  id: z.preprocess(toNumber(INTEGER_RE), z.number({ error: 'Not found.' }).int().min(1).max(2_147_483_647)),
});

// ---- Responses ----

export function pagedSchema<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    current_page: z.number().int(),
    last_page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
    from: z.number().int().nullable(),
    to: z.number().int().nullable(),
    next_page_url: z.string().nullable(),
    prev_page_url: z.string().nullable(),
  });
}
export interface Paged<T> {
  data: T[];
  current_page: number;
  last_page: number;
  per_page: number;
  total: number;
  from: number | null;
  to: number | null;
  next_page_url: string | null;
  prev_page_url: string | null;
}

export const MessageSchema = z.object({ message: z.string() });
export const ErrorSchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ErrorBody = z.infer<typeof ErrorSchema>;

/** Turns zod issues into the contract's `{message, errors}` body: first message per field. */
export function validationErrorBody(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): Required<ErrorBody> {
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const field = issue.path.length > 0 ? String(issue.path[0]) : 'body';
    const message = issue.path.length > 0 ? issue.message : 'The request body must be a JSON object.';
    if (!errors[field]) errors[field] = [message];
  }
  const first = Object.values(errors)[0]?.[0] ?? 'The given data was invalid.';
  return { message: first, errors };
}
