import { Controller, Get, HttpStatus, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../auth/access.decorators';
import { Readiness } from './readiness';

class HealthResponse {
  @ApiProperty({ enum: ['ok'] }) status!: 'ok';
}

/**
 * Liveness and readiness. `/health` answers once the stores are open and the schema is migrated (the
 * server listens only after that) and never looks further: a store that is down must not get the
 * process restarted. `/ready` probes what this process's roles need, and is 503 when a part is not
 * ready, so a balancer sends it no traffic until it is.
 */
@ApiTags('Health')
@Public()
@Controller()
export class HealthController {
  constructor(private readonly readiness: Readiness) {}

  @Get('health')
  @ApiOkResponse({ type: HealthResponse })
  health(): HealthResponse {
    return { status: 'ok' };
  }

  // Left out of the OpenAPI document: an operator's probe, not part of the API (and a 503 by design).
  @Get('ready')
  @ApiExcludeEndpoint()
  async ready(@Res() reply: FastifyReply): Promise<void> {
    const report = await this.readiness.check();
    await reply.code(report.status === 'ready' ? HttpStatus.OK : HttpStatus.SERVICE_UNAVAILABLE).send(report);
  }
}
