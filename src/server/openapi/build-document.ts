import { ERROR_SCHEMA, FIELD_ERROR_SCHEMA } from './error-schema.js';

/** What the document needs of one registered route (a subset of Fastify's route options). */
export interface DocumentedRoute {
  method: string | string[];
  url: string;
  schema?: Record<string, any>;
  config?: { public?: boolean; [key: string]: unknown };
}

type Json = Record<string, any>;

const DOCUMENTED_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
// Route schema keys that are OpenAPI operation fields, not request or response parts.
const OPERATION_KEYS = ['summary', 'description', 'tags', 'operationId', 'deprecated'] as const;

/** `/api/categories/:id` → `/api/categories/{id}`; no trailing slash (Fastify registers both). */
export function toOpenApiPath(url: string): string {
  const path = url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

/** The methods of a route that the document lists (Fastify's automatic HEAD routes are not). */
export function documentedMethods(route: DocumentedRoute): string[] {
  return [route.method]
    .flat()
    .map((m) => m.toUpperCase())
    .filter((m) => DOCUMENTED_METHODS.has(m));
}

/** Drops the draft-07 keywords that have no place inside an OpenAPI 3.1 document. */
function schemaOf(schema: unknown): Json {
  if (!schema || typeof schema !== 'object') return {};
  const { $schema: _s, $id: _i, ...rest } = schema as Json;
  return rest;
}

/** An object schema of a request part → OpenAPI parameters. */
function parametersOf(part: unknown, where: 'path' | 'query' | 'header', pathNames: string[]): Json[] {
  const schema = schemaOf(part);
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const required = new Set<string>(schema.required ?? []);
  const parameters = Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
  if (where === 'path') {
    for (const name of pathNames)
      if (!properties[name])
        parameters.push({ name, in: 'path', required: true, schema: { type: 'string' } } as Json & {
          name: string;
          in: 'path';
          required: boolean;
          schema: Json;
        });
  }
  return parameters;
}

/** A Fastify response entry (a schema, or `{description, content}`) → an OpenAPI response. */
function responseOf(entry: Json): Json {
  if (entry.content && typeof entry.content === 'object') {
    const content: Json = {};
    for (const [type, media] of Object.entries(entry.content as Record<string, Json>)) content[type] = { schema: schemaOf(media.schema) };
    return { description: entry.description ?? 'Success.', content };
  }
  const { description, ...schema } = schemaOf(entry);
  if (schema.type === 'null') return { description: description ?? 'No content.' };
  return { description: description ?? 'Success.', content: { 'application/json': { schema } } };
}

function statusKey(code: string): string {
  return /^[1-5]xx$/i.test(code) ? code.toUpperCase() : code;
}

/** A camelCase operation id from the method and path (`getApiAuthMe`) when the route names none. */
function defaultOperationId(method: string, path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return method.toLowerCase() + words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}

function securityOf(method: string, isPublic: boolean): Json[] {
  const xsrf = UNSAFE.has(method) ? { xsrfHeader: [], xsrfCookie: [] } : {};
  if (isPublic) return UNSAFE.has(method) ? [xsrf] : [];
  return [
    { bearerAuth: [], ...xsrf },
    { accessToken: [], ...xsrf },
  ];
}

/** One OpenAPI operation from a route's schema and config. */
function operationOf(route: DocumentedRoute, method: string, path: string): Json {
  const schema = route.schema ?? {};
  const pathNames = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
  const isPublic = route.config?.public === true;
  const operation: Json = {};
  for (const key of OPERATION_KEYS) if (schema[key] !== undefined) operation[key] = schema[key];
  operation.tags ??= [path.split('/')[2] ?? 'api'];
  operation.summary ??= `${method} ${path}`;
  operation.operationId ??= defaultOperationId(method, path);
  const parameters = [
    ...parametersOf(schema.params, 'path', pathNames),
    ...parametersOf(schema.querystring ?? schema.query, 'query', []),
    ...parametersOf(schema.headers, 'header', []),
  ];
  if (parameters.length) operation.parameters = parameters;
  if (schema.body?.content && typeof schema.body.content === 'object') {
    // A body of other media types (a file's bytes), each with its schema.
    const content: Json = {};
    for (const [type, media] of Object.entries(schema.body.content as Record<string, Json>)) content[type] = { schema: schemaOf(media.schema) };
    operation.requestBody = { required: true, content };
  } else if (schema.body) {
    const body = schemaOf(schema.body);
    const types = [body.type].flat();
    operation.requestBody = { required: !types.includes('null'), content: { 'application/json': { schema: body } } };
  }
  const responses: Json = {};
  for (const [code, entry] of Object.entries((schema.response ?? {}) as Record<string, Json>)) responses[statusKey(code)] = responseOf(entry);
  if (!Object.keys(responses).some((code) => code.startsWith('2'))) {
    responses['200'] = { description: 'Success (this route does not describe its answer yet).', content: { 'application/json': { schema: {} } } };
  }
  if (!isPublic) responses['401'] ??= { $ref: '#/components/responses/Unauthenticated' };
  responses['4XX'] ??= { $ref: '#/components/responses/Error' };
  responses['5XX'] ??= { $ref: '#/components/responses/Error' };
  operation.responses = responses;
  operation.security = securityOf(method, isPublic);
  return operation;
}

/** What the document says about itself. */
export interface DocumentInfo {
  title: string;
  version: string;
  description: string;
}

/**
 * The OpenAPI 3.1 document of every route under `/api`: each method and path once, with the
 * route's own schemas (parameters, body, responses), the shared error shape for 4XX/5XX, and the
 * security each needs (a bearer access token or `x-access-token`, plus the XSRF header echoing
 * the XSRF-TOKEN cookie on writes; public routes need no token).
 */
export function buildOpenApiDocument(routes: readonly DocumentedRoute[], info: DocumentInfo): Json {
  const paths: Record<string, Json> = {};
  const operationIds = new Set<string>();
  for (const route of routes) {
    if (!route.url.startsWith('/api/') || route.config?.openapi === false) continue;
    const path = toOpenApiPath(route.url);
    for (const method of documentedMethods(route)) {
      const item = (paths[path] ??= {});
      const key = method.toLowerCase();
      if (item[key]) continue;
      const operation = operationOf(route, method, path);
      // Aliases (`/login` and `/auth/login`) share a schema: each gets an id of its own.
      if (operationIds.has(operation.operationId)) operation.operationId = defaultOperationId(method, path);
      operationIds.add(operation.operationId);
      item[key] = operation;
    }
  }
  const sorted = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
  const error = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, description: info.description },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    paths: sorted,
    components: {
      schemas: { Error: ERROR_SCHEMA, FieldError: FIELD_ERROR_SCHEMA },
      responses: {
        Error: error(
          '`{statusCode, code, message, errors?}`: 400 BAD_REQUEST (query or id), 403 FORBIDDEN, 404 NOT_FOUND, 409 CONFLICT, 422 VALIDATION (every field error at once), 429 RATE_LIMITED (Retry-After), 503 UNAVAILABLE (Retry-After), 500 INTERNAL.',
        ),
        Unauthenticated: error('No valid access token (UNAUTHENTICATED), or the session was ended by a sign-in elsewhere (SESSION_REPLACED).'),
      },
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The access token of POST /api/login (3600 s).' },
        accessToken: { type: 'apiKey', in: 'header', name: 'x-access-token', description: 'The same access token, in the header the spec also names.' },
        xsrfHeader: { type: 'apiKey', in: 'header', name: 'X-XSRF-TOKEN', description: 'Every write echoes the XSRF-TOKEN cookie here (double submit).' },
        xsrfCookie: { type: 'apiKey', in: 'cookie', name: 'XSRF-TOKEN', description: 'Set by the server on the first answer.' },
      },
    },
  };
}
