import { Module } from '@nestjs/common';
import { ApiDocument } from '../platform/api-document/api-document';
import { McpController } from './mcp.controller';
import { McpServerFactory } from './mcp-server.factory';
import { RestDispatcher } from './rest-dispatcher';

/** The MCP endpoint for AI agents: tools derived from the served OpenAPI document, run as REST calls. */
@Module({
  controllers: [McpController],
  providers: [ApiDocument, McpServerFactory, RestDispatcher],
  exports: [ApiDocument],
})
export class McpHttpModule {}
