import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { OBJECT_ID_PATTERN } from '../platform/http/validators';
import { findIllFormedText } from '@rank/domain/well-formed-text';
import type { ToolDefinition } from './tool-catalogue';

export interface RestAnswer {
  status: number;
  contentType: string;
  text: string;
  /** The parsed body when the answer is JSON. */
  json?: unknown;
}

/**
 * Runs a tool as its REST route, in process (Fastify's inject, no socket): the same guard, pipes,
 * validation, limits and account isolation, with the caller's own Authorization header. Arguments go
 * where the operation takes them: path and query parameters by the document, the rest in the body.
 */
@Injectable()
export class RestDispatcher {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  async call(tool: ToolDefinition, args: Record<string, unknown>, authorization: string): Promise<RestAnswer> {
    let path = tool.path;
    const query = new URLSearchParams();
    const body: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(args)) {
      if (value === undefined) continue;
      const where = tool.parameterLocations.get(name) ?? (tool.hasBody ? 'body' : 'query');
      if (where === 'body') {
        body[name] = value;
        continue;
      }
      // Function-calling agents send null for an optional parameter they leave out.
      if (value === null) continue;
      // A path holds one value: a list's first would be taken and the rest ignored without a word.
      if (where === 'path' && Array.isArray(value)) return refused(`${name} must be a string`);
      const texts = Array.isArray(value) ? value : [value];
      // Path and query parameters are all text: `search: {"a":1}` would become the text "[object Object]".
      if (!texts.every((text): text is string => typeof text === 'string'))
        return refused(`${name} must be ${Array.isArray(value) ? 'a list of strings' : 'a string'}`);
      // A URL cannot carry a lone surrogate (encodeURIComponent throws, URLSearchParams writes U+FFFD
      // in its place), so the route would never see it: refused here as the route refuses it.
      const problem = findIllFormedText(value, name) ?? (where === 'path' ? pathProblem(tool, name, texts[0]!) : null);
      if (problem) return refused(problem);
      if (where === 'path') path = path.replace(`{${name}}`, encodeURIComponent(texts[0]!));
      else for (const text of texts) query.append(name, text);
    }
    const url = query.size > 0 ? `${path}?${query.toString()}` : path;
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    const response = await fastify.inject({
      method: tool.method as 'GET',
      url,
      headers: { authorization, ...(tool.hasBody ? { 'content-type': 'application/json' } : {}) },
      ...(tool.hasBody ? { payload: JSON.stringify(body) } : {}),
    });
    const contentType = String(response.headers['content-type'] ?? '');
    const answer: RestAnswer = { status: response.statusCode, contentType, text: response.body };
    if (contentType.includes('json') && response.body !== '') answer.json = JSON.parse(response.body);
    return answer;
  }
}

/**
 * A path value the route's own check never sees: the router would resolve `.` or `..`, or take
 * `folders` for its sibling route `/api/projects/folders`, and answer another operation. So a path
 * parameter is held to its documented pattern here, with the route's message.
 */
function pathProblem(tool: ToolDefinition, name: string, value: string): string | null {
  const pattern = tool.inputSchema.properties[name]?.pattern;
  if (typeof pattern !== 'string' || new RegExp(pattern).test(value)) return null;
  return pattern === OBJECT_ID_PATTERN ? `${name} must be a 24-character hex id` : `${name} must match ${pattern}`;
}

/** The answer the route gives to input it refuses. */
function refused(message: string): RestAnswer {
  const json = { success: false, message };
  return { status: 400, contentType: 'application/json; charset=utf-8', text: JSON.stringify(json), json };
}
