import type { OpenAPIObject } from '@nestjs/swagger';
import { API_OPERATIONS } from './api-operations';

type Json = Record<string, unknown>;
type Operation = Json & { parameters?: unknown[]; requestBody?: unknown; responses?: Record<string, unknown>; security?: unknown };

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** Set by the @Public decorator: the route needs no key at all. */
export const PUBLIC_EXTENSION = 'x-public';

/** Set by the @PublicWhenShared decorator on a route; turned into its security requirement here. */
export const PUBLIC_WHEN_SHARED_EXTENSION = 'x-public-when-shared';

export const ERROR_SCHEMA_NAME = 'ErrorResponse';

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'A parameter is missing or invalid; `message` names it',
  401: 'Missing, malformed, invalid or revoked API key',
  403: 'Account blocked (`blocked: true`), plan without API access (`planRequired: true`) or, on writes, account suspended (`suspended: true`)',
  404: 'The resource does not exist or belongs to another account',
  409: 'A folder with this name already exists',
  413: 'The body is larger than 5 MB',
  415: 'The body is not JSON: send it with Content-Type: application/json',
  429: 'Rate limit reached: `retryAfter` seconds (also in the Retry-After header), `limit` calls per `window` seconds',
  431: 'The request line and headers are larger than the server accepts (16 KB); the connection is closed',
  502: 'The upstream services failed',
};

/**
 * What @nestjs/swagger cannot say from the decorators alone, applied to the generated document in
 * one pass: the operation ids, summaries and descriptions of API_OPERATIONS, the error responses,
 * the security requirements (public reads of shared projects need no key), `servers`, and OpenAPI 3.1
 * idioms (`type: [T, "null"]` instead of 3.0's `nullable`).
 */
export function refineDocument(document: OpenAPIObject): OpenAPIObject {
  const doc = document as unknown as Json & {
    paths: Record<string, Record<string, Operation>>;
    components: Json & { schemas?: Record<string, unknown>; securitySchemes?: Record<string, Json> };
  };
  doc.servers = [{ url: '/', description: 'The service that serves this document (paths are relative to its address)' }];
  doc.security = [{ bearer: [] }];
  // An API key is an opaque token, not a JWT.
  delete doc.components.securitySchemes?.bearer?.bearerFormat;
  doc.components.schemas = { ...doc.components.schemas, [ERROR_SCHEMA_NAME]: errorSchema() };

  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (operation) refineOperation(method, path, operation);
    }
  }
  inlineRequestBodies(doc);
  replaceNullable(doc);
  return document;
}

/**
 * A request body's schema is written inline in its operation rather than as a shared component:
 * generators read a component's `default` as "always present" (openapi-typescript's default
 * defaultNonNullable), which would make every defaulted field of a body required for the client.
 * Only bodies with a defaulted field are inlined; one that nothing else refers to leaves the components.
 */
function inlineRequestBodies(
  doc: Json & { paths: Record<string, Record<string, Operation>>; components: { schemas?: Record<string, unknown> } },
): void {
  const schemas = doc.components.schemas ?? {};
  const bodies: { media: Json; method: string }[] = [];
  for (const item of Object.values(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const media = ((item[method]?.requestBody as Json | undefined)?.content as Record<string, Json> | undefined)?.['application/json'];
      const ref = (media?.schema as Json | undefined)?.$ref;
      if (media && typeof ref === 'string' && hasDefaultedProperty(schemas[nameOfRef(ref)])) bodies.push({ media, method });
    }
  }
  const bodyNames = new Set(bodies.map(({ media }) => nameOfRef((media.schema as Json).$ref as string)));
  for (const { media, method } of bodies) {
    const name = nameOfRef((media.schema as Json).$ref as string);
    if (!schemas[name]) continue;
    media.schema = structuredClone(schemas[name]);
    // An update (PUT) keeps what its body leaves out, where a create fills in the default: an update
    // body that showed the create's defaults would tell a client what an omitted field resets to.
    if (method === 'put')
      for (const property of Object.values(((media.schema as Json).properties ?? {}) as Record<string, Json>)) delete property.default;
  }
  const stillReferred = new Set([...JSON.stringify(doc).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!));
  for (const name of bodyNames) if (!stillReferred.has(name)) delete schemas[name];
}

const nameOfRef = (ref: string) => ref.replace('#/components/schemas/', '');

function hasDefaultedProperty(schema: unknown): boolean {
  const properties = (schema as Json | undefined)?.properties as Record<string, Json> | undefined;
  return Object.values(properties ?? {}).some((property) => 'default' in property);
}

function refineOperation(method: string, path: string, operation: Operation): void {
  const entry = API_OPERATIONS[`${method.toUpperCase()} ${path}`];
  if (entry) {
    operation.operationId = entry.operationId;
    operation.summary = entry.summary;
    const written = typeof operation.description === 'string' && operation.description !== '' ? `\n\n${operation.description}` : '';
    operation.description = entry.description + written;
  } else if (typeof operation.summary !== 'string') {
    operation.summary = `${method.toUpperCase()} ${path}`;
  }

  // The root requirement (a key) applies unless the route is readable without one.
  delete operation.security;
  const isPublic = operation[PUBLIC_EXTENSION] === true;
  if (isPublic) operation.security = [];
  else if (operation[PUBLIC_WHEN_SHARED_EXTENSION] === true) operation.security = [{}, { bearer: [] }];
  delete operation[PUBLIC_EXTENSION];
  delete operation[PUBLIC_WHEN_SHARED_EXTENSION];

  // Every operation can meet a 400 (any query value must be percent-encoded UTF-8) and a 431 (oversized
  // URL or headers, answered below the router); every method that may carry a body can meet what the
  // body parser refuses before the route runs (413, 415), a body the operation does not take included.
  const statuses = new Set<number>([...(isPublic ? [] : [401, 403]), ...(entry?.errors ?? []), 400, 431]);
  if (method !== 'get' && method !== 'head') for (const status of [413, 415]) statuses.add(status);
  const responses = (operation.responses ??= {});
  for (const status of [...statuses].sort()) {
    responses[String(status)] ??= errorResponse(status);
  }
  // An error a controller declared with a description only (@ApiTooManyRequestsResponse, …) still has the error body.
  for (const [status, response] of Object.entries(responses) as [string, Json][]) {
    if (Number(status) >= 400 && response.content === undefined) {
      responses[status] = { ...errorResponse(Number(status)), ...(response.description ? { description: response.description } : {}) };
    }
  }
}

function errorResponse(status: number): Json {
  const response: Json = {
    description: ERROR_DESCRIPTIONS[status],
    content: { 'application/json': { schema: { $ref: `#/components/schemas/${ERROR_SCHEMA_NAME}` } } },
  };
  if (status === 429) {
    response.headers = { 'Retry-After': { description: 'Seconds until a call is allowed again', schema: { type: 'integer', minimum: 0 } } };
  }
  return response;
}

function errorSchema(): Json {
  return {
    type: 'object',
    description: 'Every error: the text is in `message`; some errors add fields (`planRequired`, `suspended`, `blocked`, `retryAfter`, …).',
    required: ['message'],
    properties: {
      success: { type: 'boolean', enum: [false] },
      message: { type: 'string', example: 'projectId is required' },
      error: { type: 'string', description: 'A machine-readable code where the spec gives one', example: 'KEYWORDS_LIMIT_EXCEEDED' },
      planRequired: { type: 'boolean' },
      suspended: { type: 'boolean' },
      blocked: { type: 'boolean' },
      retryAfter: { type: 'integer', minimum: 0, description: 'Seconds to wait before the next call (429)' },
      limit: { type: 'integer', minimum: 0 },
      window: { type: 'integer', minimum: 0, description: 'Seconds' },
    },
    additionalProperties: true,
  };
}

/** OpenAPI 3.0's `nullable: true` becomes a 3.1 type array (or a union with null for `$ref`s and compositions). */
function replaceNullable(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) replaceNullable(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const schema = node as Json;
  for (const value of Object.values(schema)) replaceNullable(value);
  // A property that happens to be named `nullable` is an object, not the keyword.
  if (typeof schema.nullable !== 'boolean') return;
  const nullable = schema.nullable === true;
  delete schema.nullable;
  if (!nullable) return;
  const composed = ['$ref', 'allOf', 'oneOf', 'anyOf'].some((keyword) => keyword in schema);
  if (typeof schema.type === 'string' && !composed) {
    schema.type = [schema.type, 'null'];
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
    return;
  }
  if (Array.isArray(schema.type) && !composed) {
    if (!schema.type.includes('null')) schema.type = [...schema.type, 'null'];
    return;
  }
  // A $ref or a composition: keep the annotations beside the union.
  // (@nestjs/swagger writes a nullable reference as `type: object, allOf: [$ref]`: the type goes with the union.)
  const { description, example, default: fallback, type: _type, ...shape } = schema;
  for (const key of Object.keys(schema)) delete schema[key];
  const single =
    Array.isArray(shape.allOf) && shape.allOf.length === 1 && Object.keys(shape).length === 1 ? (shape.allOf[0] as Json) : shape;
  Object.assign(schema, { anyOf: [single, { type: 'null' }] });
  if (description !== undefined) schema.description = description;
  if (example !== undefined) schema.example = example;
  if (fallback !== undefined) schema.default = fallback;
}
