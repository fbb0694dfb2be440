/**
 * The language of a request's texts (CONTRACT.md §19): its `Accept-Language` picks one of the six
 * (core/i18n/languages.ts); `message`, the texts of `errors` and import rows' reasons are written
 * in it (core/i18n/server). Keys, statuses, codes and every other value stay as they are; a request
 * in English, or in none of the six, is answered with exactly the text the code wrote.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { languageOfAcceptLanguage, type Language } from '../../core/i18n/languages.js';
import { translate } from '../../core/i18n/server/translate.js';
import type { ErrorBody } from '../../core/schemas.js';

export function requestLanguage(request: FastifyRequest): Language {
  return languageOfAcceptLanguage(request.headers['accept-language']);
}

/** An error body (`message`, `errors`) in `lang`: the same keys, each text translated. */
export function errorBodyIn(lang: Language, body: ErrorBody): ErrorBody {
  if (lang === 'en') return body;
  const message = translate(body.message, lang);
  if (!body.errors) return { ...body, message };
  const errors: Record<string, string[]> = {};
  for (const [field, texts] of Object.entries(body.errors)) errors[field] = texts.map((text) => translate(text, lang));
  return { ...body, message, errors };
}

/**
 * The `message` of answers that are not errors ("You logged out.", "Entry was deleted.") in the
 * request's language, before the route's serializer writes them.
 */
export function installAnswerLanguage(app: FastifyInstance): void {
  // A callback, not an async hook: it runs on every answer, and most are English objects without a message.
  app.addHook('preSerialization', (request, _reply, payload: unknown, done) => {
    const message = isPlainObject(payload) ? payload.message : undefined;
    if (typeof message !== 'string') return done(null, payload);
    const lang = requestLanguage(request);
    done(null, lang === 'en' ? payload : { ...(payload as object), message: translate(message, lang) });
  });
}

function isPlainObject(value: unknown): value is { message?: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
