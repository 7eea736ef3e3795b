import { Controller, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { McpServerFactory } from './mcp-server.factory';

/**
 * MCP over Streamable HTTP at /api/mcp, stateless: each POST carries its JSON-RPC messages and gets
 * its answers in the response, so any api replica serves any call and no session is kept. GET (a
 * server-initiated stream) and DELETE (ending a session) have nothing to do here and answer 405.
 * A browser page's Origin was checked before anything else (403, mcp-cors.ts), and the global guard
 * has authenticated the key (401) and checked the plan and blocking (403); each tool then runs its
 * REST route with the same Authorization header.
 */
@ApiExcludeController()
@Controller('api/mcp')
export class McpController {
  constructor(private readonly servers: McpServerFactory) {}

  @Post()
  async handle(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const invalid = invalidMessage(request.body);
    if (invalid !== undefined) {
      // JSON-RPC: -32600 for JSON that is no request (the transport says -32700, "Parse error", for those too).
      await reply.status(400).send({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `Invalid Request: ${invalid}` } });
      return;
    }
    const server = this.servers.create(request.headers.authorization!);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await server.connect(transport);
      // The transport answers with a Response, which goes out as Fastify's own answer: its onSend
      // hooks add the security headers, the request id and the CORS headers, and compress it.
      const answer = await transport.handleRequest(webRequestOf(request), { parsedBody: request.body });
      answer.headers.forEach((value, name) => void reply.header(name, value));
      // A notification's 202 has no body, and so no Content-Type.
      const text = answer.body === null ? undefined : await answer.text();
      await reply.status(answer.status).send(text);
    } finally {
      await transport.close();
      await server.close();
    }
  }
}

/**
 * Why a parsed body is no JSON-RPC message or batch of them, in the MCP schema's terms (version
 * "2.0", an id that is a string or an integer, never null, a method that is a string, params an
 * object); undefined when it is one. An empty batch is no request either (JSON-RPC 2.0).
 */
function invalidMessage(body: unknown): string | undefined {
  if (Array.isArray(body)) {
    if (body.length === 0) return 'an empty batch';
    const index = body.findIndex((message) => !JSONRPCMessageSchema.safeParse(message).success);
    return index === -1 ? undefined : `message ${index} of the batch is not a JSON-RPC 2.0 message`;
  }
  return JSONRPCMessageSchema.safeParse(body).success ? undefined : 'not a JSON-RPC 2.0 message';
}

/** The request as the transport reads it: its headers (the body is already parsed, and passed beside it). */
function webRequestOf(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return new Request(new URL(request.url, 'http://mcp.invalid'), { method: request.method, headers });
}
