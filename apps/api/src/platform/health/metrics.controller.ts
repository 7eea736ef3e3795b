import { Controller, Get, Headers, Inject, Res, UnauthorizedException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { AppConfig } from '@rank/platform/config/app-config';
import { Metrics } from '@rank/platform/metrics/metrics';
import { APP_CONFIG } from '@rank/platform/tokens';
import { Public } from '../auth/access.decorators';

/**
 * `GET /metrics`, Prometheus's text format. With METRICS_TOKEN set it wants
 * `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise); unset, it is public, for a scraper on a
 * private network. Not an API route, so not in the OpenAPI document.
 */
@ApiExcludeController()
@Public()
@Controller('metrics')
export class MetricsController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {}

  @Get()
  async scrape(@Headers('authorization') authorization: string | undefined, @Res() reply: FastifyReply): Promise<void> {
    const token = this.config.metricsToken;
    if (token !== undefined) {
      const sent = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1] ?? '';
      // Compared as hashes, in constant time: the length of a wrong guess tells nothing.
      const digest = (s: string) => createHash('sha256').update(s).digest();
      if (!timingSafeEqual(digest(sent), digest(token))) {
        throw new UnauthorizedException({ message: 'Missing or wrong metrics token: send Authorization: Bearer <METRICS_TOKEN>' });
      }
    }
    const { contentType, text } = await this.metrics.exposition();
    await reply.header('content-type', contentType).send(text);
  }
}
