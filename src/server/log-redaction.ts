import type { FastifyRequest } from 'fastify';

/** Query parameters whose values are secrets: reset and sign-in links carry a `token`. */
const SECRET_PARAM = /token|secret|password|code/i;

/**
 * A URL as it may be logged: the value of every query parameter that names a token, secret,
 * password or code replaced by `[REDACTED]` (`/reset-password?token=[REDACTED]`).
 */
export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  if (query < 0) return url;
  const parts = url
    .slice(query + 1)
    .split('&')
    .map((part) => {
      const equals = part.indexOf('=');
      if (equals < 0) return part;
      let name = part.slice(0, equals);
      try {
        name = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A malformed name is judged as it is.
      }
      return SECRET_PARAM.test(name) ? `${part.slice(0, equals)}=[REDACTED]` : part;
    });
  return `${url.slice(0, query)}?${parts.join('&')}`;
}

/** Pino serializers for Fastify's request log lines: Fastify's own fields, with the URL redacted. */
export const logSerializers = {
  req(request: FastifyRequest) {
    return {
      method: request.method,
      url: redactUrl(request.url),
      host: request.host,
      remoteAddress: request.ip,
      remotePort: request.socket?.remotePort,
    };
  },
};
