import { Controller, Get, Headers, Inject, Res, UnauthorizedException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { AppConfig } from '@rank/platform/config/app-config';
import { Metrics } from '@rank/platform/metrics/metrics';
import { acceptsMetricsToken, METRICS_TOKEN_REFUSED } from '@rank/platform/metrics/metrics-token';
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
    if (!acceptsMetricsToken(this.config.metricsToken, authorization)) throw new UnauthorizedException({ message: METRICS_TOKEN_REFUSED });
    const { contentType, text } = await this.metrics.exposition();
    await reply.header('content-type', contentType).send(text);
  }
}
