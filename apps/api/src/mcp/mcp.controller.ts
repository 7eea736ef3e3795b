import { Controller, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { McpServerFactory } from './mcp-server.factory';

/**
 * MCP over Streamable HTTP at /api/mcp, stateless: each POST carries its JSON-RPC messages and gets
 * its answers in the response, so any api replica serves any call and no session is kept. GET (a
 * server-initiated stream) and DELETE (ending a session) have nothing to do here and answer 405.
 * The global guard has already authenticated the key (401) and checked the plan and blocking (403);
 * each tool then runs its REST route with the same Authorization header.
 */
@ApiExcludeController()
@Controller('api/mcp')
export class McpController {
  constructor(private readonly servers: McpServerFactory) {}

  @Post()
  async handle(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const server = this.servers.create(request.headers.authorization!);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    // The transport writes the response itself.
    reply.hijack();
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  }
}
