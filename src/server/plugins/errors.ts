import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ApiErrorBody, ErrorCode } from '../../shared/api-contract.js';
import { toFieldErrors } from '../../shared/field-errors.js';
import { uniqueViolationField } from '../../shared/sql-text.js';
import { isUnavailableError } from '../db/kysely.js';
import { AppError, isStillReferenced } from '../errors.js';

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  422: 'VALIDATION',
  429: 'RATE_LIMITED',
  503: 'UNAVAILABLE',
};

function send(reply: FastifyReply, body: ApiErrorBody, headers?: Record<string, string>) {
  if (headers) reply.headers(headers);
  return reply.status(body.statusCode).type('application/json; charset=utf-8').send(body);
}

/**
 * The one error handler: every failure leaves as `{statusCode, code, message, errors?}`; nothing
 * internal (stack, SQL, driver text) reaches the client. Unexpected errors are logged with the
 * request id and answered 500 `INTERNAL`.
 */
export const errorsPlugin = fp(async function errorsPlugin(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError & Record<string, any>, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      return send(
        reply,
        { statusCode: error.statusCode, code: error.code, message: error.message, ...(error.errors ? { errors: error.errors } : {}) },
        error.headers,
      );
    }

    if (error.validation) {
      const errors = toFieldErrors(error.validation as any, (request.routeOptions.config as any)?.messages);
      if (error.validationContext === 'body') {
        return send(reply, { statusCode: 422, code: 'VALIDATION', message: 'The request has invalid fields.', errors });
      }
      const where = error.validationContext === 'params' ? 'path' : 'query';
      const names = [...new Set(errors.map((e) => e.path).filter(Boolean))].join(', ');
      return send(reply, {
        statusCode: 400,
        code: 'BAD_REQUEST',
        message: `Invalid ${where} parameter${names ? `: ${names}` : ''}.`,
        errors,
      });
    }

    if (isUnavailableError(error)) {
      request.log.warn({ err: { message: error.message, code: error.code } }, 'database unavailable');
      return send(reply, { statusCode: 503, code: 'UNAVAILABLE', message: 'The database is unavailable. Please try again shortly.' }, { 'retry-after': '5' });
    }

    switch (error.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return send(reply, { statusCode: 413, code: 'BAD_REQUEST', message: 'The request body is too large.' });
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return send(reply, { statusCode: 415, code: 'BAD_REQUEST', message: 'Send the request body as application/json.' });
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return send(reply, { statusCode: 400, code: 'BAD_REQUEST', message: 'The request body is empty.' });
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        return send(reply, { statusCode: 400, code: 'BAD_REQUEST', message: 'The request body is not valid JSON.' });
      case '23505': {
        const path = uniqueViolationField(error.detail);
        return send(reply, {
          statusCode: 409,
          code: 'CONFLICT',
          message: path ? `Another record already has this ${path}.` : 'Another record already has this value.',
          errors: path ? [{ path, keyword: 'unique', messageKey: 'validation.unique', params: {} }] : undefined,
        });
      }
      // A character the database cannot store (NUL) that got past the request checks.
      case '22021':
      case '22P05':
        return send(reply, { statusCode: 400, code: 'BAD_REQUEST', message: 'The request contains a character that is not allowed.' });
      // A number past what its column holds (an id of 2147483648, 1e+300) that got past the request checks.
      case '22003':
      case '22P02':
        return send(reply, { statusCode: 400, code: 'BAD_REQUEST', message: 'A number in the request is out of range.' });
    }
    // A delete refused by a foreign key, as either database reports it.
    if (isStillReferenced(error)) return send(reply, { statusCode: 409, code: 'CONFLICT', message: 'Other records still use this record.' });

    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      // Fastify's own client errors (malformed JSON and the like): keep the status, not the internals.
      const message = error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError ? 'The request body is not valid JSON.' : error.message;
      return send(reply, { statusCode: status, code: CODE_BY_STATUS[status] ?? 'BAD_REQUEST', message });
    }

    request.log.error({ err: error }, 'unhandled error');
    return send(reply, { statusCode: 500, code: 'INTERNAL', message: 'An internal error occurred.' });
  });

  app.setNotFoundHandler((request, reply) => {
    const isPage = (request.method === 'GET' || request.method === 'HEAD') && !request.url.startsWith('/api');
    if (isPage && app.spaIndex) return app.spaIndex(request, reply);
    return send(reply, { statusCode: 404, code: 'NOT_FOUND', message: `No route ${request.method} ${request.url.split('?')[0]}.` });
  });
});
