import { Controller, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '@rank/platform/config/app-config';
import { APP_CONFIG } from '@rank/platform/tokens';
import { isAllowedOrigin } from './allowed-origin';
import { McpServerFactory } from './mcp-server.factory';

/**
 * MCP over Streamable HTTP at /api/mcp, stateless: each POST carries its JSON-RPC messages and gets
 * its answers in the response, so any api replica serves any call and no session is kept. GET (a
 * server-initiated stream) and DELETE (ending a session) have nothing to do here and answer 405.
 * The global guard has already authenticated the key (401) and checked the plan and blocking (403);
 * a browser page's Origin is checked here (403, see allowed-origin.ts; its preflight and the CORS headers
 * of answers Fastify sends are in mcp-cors.ts); each tool then runs its REST route with the same Authorization header.
 */
@ApiExcludeController()
@Controller('api/mcp')
export class McpController {
  constructor(
    private readonly servers: McpServerFactory,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  async handle(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (!isAllowedOrigin(request.headers.origin, this.config.mcpAllowedOrigins)) {
      // A JSON-RPC error without an id, as the transport's own refusals are written.
      await reply.status(403).send({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Forbidden: Origin not allowed' } });
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

/** The request as the transport reads it: its headers (the body is already parsed, and passed beside it). */
function webRequestOf(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  return new Request(new URL(request.url, 'http://mcp.invalid'), { method: request.method, headers });
}
