import { Controller, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '@rank/platform/config/app-config';
import { APP_CONFIG } from '@rank/platform/tokens';
import { routedPath } from '../platform/http/url-encoding';
import { securityHeadersOf } from '../platform/http/security-headers';
import { isAllowedOrigin } from './allowed-origin';
import { corsHeadersOf } from './mcp-cors';
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
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    // The transport writes the response itself, so Fastify's onSend hooks do not run: the headers
    // they add (security, the request id set on the reply) go on the raw response here.
    const headers = {
      ...reply.getHeaders(),
      ...securityHeadersOf(routedPath(request)),
      ...corsHeadersOf(request.headers.origin, this.config.mcpAllowedOrigins),
    };
    for (const [name, value] of Object.entries(headers)) if (value !== undefined) reply.raw.setHeader(name, value);
    reply.hijack();
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  }
}
