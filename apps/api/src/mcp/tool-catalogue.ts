import type { OpenAPIObject } from '@nestjs/swagger';
import { NOT_OFFERED_AS_TOOLS } from '../platform/api-document/api-operations';
import { HTTP_METHODS } from '../platform/api-document/refine-document';

type Json = Record<string, unknown>;

export type JsonSchemaObject = Json & { type: 'object'; properties: Record<string, Json>; required?: string[] };

/** One MCP tool: a REST operation of the served document, with where each of its inputs goes. */
export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchemaObject;
  method: string;
  /** The document's path, with `{name}` path parameters. */
  path: string;
  /** Inputs that are parameters, by name: where they go in the request. */
  parameterLocations: ReadonlyMap<string, 'path' | 'query'>;
  /** Whether the operation takes a JSON body (inputs that are not parameters go there). */
  hasBody: boolean;
  /** The inputs that narrow a read's answer, offered when an answer is cut; none for a write. */
  narrowing: string[];
}

/** Query parameters that narrow a read's answer. */
const NARROWING_INPUTS = ['startDate', 'endDate', 'aggregation', 'search', 'geoCode', 'langCode', 'keywordId', 'format'];

/**
 * The MCP tools, derived from the served OpenAPI document: one per operation (except API-key
 * creation and revocation), named by its operationId, described by its summary and description, with
 * an input schema of its parameters and body fields, $refs resolved. Nothing here restates a DTO.
 */
export function toolsOfDocument(document: OpenAPIObject): ToolDefinition[] {
  const doc = document as unknown as { paths: Record<string, Record<string, Json>>; components?: { schemas?: Record<string, Json> } };
  const resolve = refResolver(doc.components?.schemas ?? {});
  const tools: ToolDefinition[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method] as Json | undefined;
      const name = operation?.operationId;
      if (!operation || typeof name !== 'string' || NOT_OFFERED_AS_TOOLS.has(name)) continue;
      tools.push(toolOf(method, path, operation, resolve));
    }
  }
  return tools.sort((a, b) => a.name.localeCompare(b.name));
}

function toolOf(method: string, path: string, operation: Json, resolve: (schema: unknown) => Json): ToolDefinition {
  const properties: Record<string, Json> = {};
  const required = new Set<string>();
  const parameterLocations = new Map<string, 'path' | 'query'>();
  for (const parameter of (operation.parameters ?? []) as Json[]) {
    const where = parameter.in;
    if ((where !== 'query' && where !== 'path') || typeof parameter.name !== 'string') continue;
    const schema = resolve(parameter.schema ?? {});
    properties[parameter.name] = typeof parameter.description === 'string' ? { ...schema, description: parameter.description } : schema;
    parameterLocations.set(parameter.name, where);
    if (parameter.required === true || where === 'path') required.add(parameter.name);
  }
  const bodySchema = ((operation.requestBody as Json | undefined)?.content as Record<string, Json> | undefined)?.['application/json']
    ?.schema;
  if (bodySchema !== undefined) {
    const body = flattenAllOf(resolve(bodySchema));
    for (const [field, schema] of Object.entries((body.properties ?? {}) as Record<string, Json>)) {
      if (parameterLocations.has(field)) continue;
      properties[field] = schema;
    }
    for (const field of (body.required ?? []) as string[]) required.add(field);
  }
  const description = [operation.summary, operation.description].filter((s): s is string => typeof s === 'string' && s !== '');
  // A write's inputs say what it does: asking again with others would do something else.
  const narrowing = method === 'get' ? NARROWING_INPUTS.filter((input) => input in properties) : [];
  return {
    name: operation.operationId as string,
    title: (operation.summary as string | undefined) ?? (operation.operationId as string),
    description:
      [...new Set(description)].join('. ') +
      `\n\nREST: ${method.toUpperCase()} ${path}.` +
      (narrowing.length > 0 ? ` Narrow long answers with ${narrowing.join(', ')}.` : ''),
    inputSchema: { type: 'object', properties, ...(required.size > 0 ? { required: [...required] } : {}) },
    method: method.toUpperCase(),
    path,
    parameterLocations,
    hasBody: bodySchema !== undefined,
    narrowing,
  };
}

/** Inlines `#/components/schemas/…` references; a schema that refers to itself stops at a plain object. */
function refResolver(schemas: Record<string, Json>): (schema: unknown) => Json {
  const inline = (node: unknown, seen: ReadonlySet<string>): unknown => {
    if (Array.isArray(node)) return node.map((item) => inline(item, seen));
    if (node === null || typeof node !== 'object') return node;
    const object = node as Json;
    if (typeof object.$ref === 'string') {
      const name = object.$ref.replace('#/components/schemas/', '');
      const { $ref: _, ...siblings } = object;
      if (seen.has(name) || !schemas[name]) return { type: 'object', ...siblings };
      return { ...(inline(schemas[name], new Set([...seen, name])) as Json), ...(inline(siblings, seen) as Json) };
    }
    return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, inline(value, seen)]));
  };
  return (schema) => inline(schema, new Set()) as Json;
}

/** A body declared as `allOf` of object parts (a DTO that extends another) as one object schema. */
function flattenAllOf(schema: Json): Json {
  if (!Array.isArray(schema.allOf)) return schema;
  const parts = (schema.allOf as Json[]).map(flattenAllOf);
  return {
    type: 'object',
    properties: Object.assign({}, ...parts.map((p) => p.properties ?? {}), schema.properties ?? {}),
    required: [...new Set(parts.flatMap((p) => (p.required ?? []) as string[]).concat((schema.required ?? []) as string[]))],
  };
}
