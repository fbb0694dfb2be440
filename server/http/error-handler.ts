/** The one error handler: every error, thrown or raised by the framework, as the body of CONTRACT.md §1. */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { validationErrorBody, type ErrorBody } from '../../core/schemas.js';
import { isDatabaseDown, isForeignKeyViolation, isTransactionConflict } from '../db/errors.js';
import { AppError } from '../errors.js';
import { errorBodyIn, requestLanguage } from './language.js';

/** The body in the request's language (http/language.ts): English as written, others translated. */
function send(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  body: ErrorBody,
  headers?: Record<string, string>,
) {
  if (headers) reply.headers(headers);
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(errorBodyIn(requestLanguage(request), body));
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    try {
      return handle(error, request, reply);
    } catch (failure) {
      request.log.error({ err: failure }, 'error handler failed');
      return send(request, reply, 500, { message: 'Server Error' });
    }
  });
}

/**
 * Errors Fastify raises before routing (a URL that does not decode, a path parameter
 * that is too long): the same handler, so they get the same JSON body.
 */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  void handle(error, request, reply);
}

/**
 * Requests too broken for the HTTP parser (bad header bytes, bad chunking, headers too
 * large): answered on the socket in the contract's shape, then the connection is closed.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'The request headers are too large.']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request took too long to arrive.']
        : [400, 'The request is not valid HTTP.'];
  const body = JSON.stringify({ message });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

function handle(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    return send(
      request,
      reply,
      error.status,
      { message: error.message, ...(error.errors ? { errors: error.errors } : {}) },
      error.headers,
    );
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    if (error.validationContext === 'params') return send(request, reply, 404, { message: 'Not found.' });
    const issues = error.validation.map((v) => ({
      path: v.instancePath.split('/').filter(Boolean),
      message: v.message ?? 'The given data was invalid.',
    }));
    return send(request, reply, 422, validationErrorBody(issues));
  }
  // The client went away while its body was being read: its own doing, not the database's.
  if (error.message === 'aborted' || request.raw.socket?.destroyed === true) {
    request.log.info({ code: error.code }, 'client closed the connection before the request was read');
    return send(request, reply, 400, { message: 'The request was not received in full.' });
  }
  // A write naming a row that a concurrent request deleted (its owner, its shoe): the
  // request came too late, which is no server error.
  if (isForeignKeyViolation(error)) {
    return send(request, reply, 409, { message: 'Something this request refers to was deleted meanwhile.' });
  }
  // Still in a deadlock after every attempt (context.ts inTransaction): nothing was written, and
  // the same request a moment later succeeds.
  if (isTransactionConflict(error)) {
    request.log.warn({ code: (error as { code?: string }).code }, 'write conflict: nothing was written');
    void reply.header('retry-after', '1');
    return send(request, reply, 503, {
      message: 'The server is busy with other changes; nothing was saved, please try again.',
    });
  }
  if (isDatabaseDown(error)) {
    request.log.warn({ code: (error as { code?: string }).code }, 'database unavailable');
    return send(request, reply, 503, { message: 'Service unavailable.' });
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return send(request, reply, status, { message: clientErrorMessage(error, status) });
  }
  request.log.error({ err: error }, 'unhandled error');
  return send(request, reply, 500, { message: 'Server Error' });
}

/** Fastify's own 4xx errors (bad JSON, too large, wrong content type) in plain words. */
function clientErrorMessage(error: FastifyError, status: number): string {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request body is too large.';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'The content type is not supported; send application/json or application/x-www-form-urlencoded.';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is empty; send a JSON object.';
    case 'FST_ERR_BAD_URL':
      return 'The request URL is not valid.';
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return 'The request URL is too long.';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'The request body is not valid JSON.';
    default:
      if (error instanceof SyntaxError) return 'The request body is not valid JSON.';
      if (status === 413) return 'The request body is too large.';
      if (status === 415) return 'The content type is not supported.';
      return 'The request is invalid.';
  }
}
