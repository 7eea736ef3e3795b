import { clientGone } from '../../platform/http/client-gone';
import { Controller, Get, Inject, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { PublicWhenShared } from '../../platform/auth/access.decorators';
import { Caller, CurrentCaller } from '../../platform/auth/caller';
import { CLOCK, Clock } from '@rank/platform/tokens';
import { ProjectAccess } from '@rank/projects/project-access';
import { ProjectContentRepository } from '@rank/projects/workspace.repository';
import { agentReport } from '@rank/tracking/exports/agent-report';
import { normaliseDomain } from '@rank/domain/domain-name';
import { ReportDomainDataLoader } from '@rank/domains/reads/report-domain-data';
import { csvExport, csvFilename, FULL_COLUMNS, SUMMARY_COLUMNS } from '@rank/tracking/exports/csv-exports';
import { AgentReportQuery, CsvExportQuery, exportWindow } from './export-query';
import { RankingHistoryReader } from '@rank/tracking/exports/ranking-history.reader';
import { streamedBody } from '@rank/tracking/exports/streamed-body';
import { ProjectSearchVolumes } from '../../research/project-search-volumes';

const CSV_DESCRIPTION = [
  'UTF-8 with a byte-order mark, `;` between fields, CRLF line ends, RFC 4180 quoting.',
  `full: \`${FULL_COLUMNS.join(';')};<YYYY-MM-DD>...\`, one date column per day with a successful check, newest first; one row per keyword.`,
  `summary: \`${SUMMARY_COLUMNS.join(';')}\`.`,
  'Change is places gained since the previous successful check (positive is better), empty when either check did not rank.',
].join(' ');

/** Downloads of a project's rankings: CSV for spreadsheets, Markdown for agents. Public when the project is shared. */
@ApiTags('Export')
@ApiBearerAuth()
@Controller('api/projects')
export class ExportController {
  constructor(
    private readonly access: ProjectAccess,
    private readonly contents: ProjectContentRepository,
    private readonly history: RankingHistoryReader,
    private readonly volumes: ProjectSearchVolumes,
    private readonly domainData: ReportDomainDataLoader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** The rankings as CSV, streamed row page by row page. */
  @Get('export')
  @PublicWhenShared()
  @ApiProduces('text/csv')
  @ApiOkResponse({
    description: CSV_DESCRIPTION,
    content: { 'text/csv': { schema: { type: 'string' } } },
    headers: {
      'Content-Disposition': {
        description: 'attachment; filename="<domain>_<format>_<startDate>_<endDate>.csv"',
        schema: { type: 'string' },
      },
    },
  })
  async csv(@CurrentCaller() caller: Caller, @Query() query: CsvExportQuery, @Res() reply: FastifyReply): Promise<void> {
    const range = exportWindow(query, this.clock.now());
    const format = query.format ?? 'full';
    const { project } = await this.access.readable(caller, query.projectId);
    const { keywords, removedKeywordIds } = await this.contents.load(project.projectId);
    const body = await streamedBody(
      csvExport(this.history.forCaller(clientGone(reply)), format, {
        projectId: project.projectId,
        keywords,
        removedKeywordIds,
        range,
        volumes: () => this.volumes.of(project.projectId, keywords),
      }),
      'CSV export',
    );
    await reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${csvFilename(project.settings.domain, format, range)}"`)
      .send(body);
  }

  /** One Markdown report: project, rankings, traffic, competitors, performance. */
  @Get('export-agent')
  @PublicWhenShared()
  @ApiProduces('text/markdown')
  @ApiOkResponse({
    description: 'A Markdown report of the project: settings, rankings summary and keyword table, traffic, competitors, performance.',
    content: { 'text/markdown': { schema: { type: 'string' } } },
  })
  async markdown(@CurrentCaller() caller: Caller, @Query() query: AgentReportQuery, @Res() reply: FastifyReply): Promise<void> {
    const { project } = await this.access.readable(caller, query.projectId);
    const { keywords } = await this.contents.load(project.projectId);
    // Traffic, competitors and performance from the domain data's read models: what is stored, never a fetch.
    const domain = normaliseDomain(project.settings.domain) ?? project.settings.domain;
    const competitors = project.competitors.map((c) => normaliseDomain(c) ?? c);
    const domainData = await this.domainData.load(
      project.projectId,
      domain,
      competitors,
      keywords.map((k) => k.keywordId),
    );
    const history = this.history.forCaller(clientGone(reply));
    const body = await streamedBody(agentReport(history, { project, keywords, domain, domainData }), 'Markdown report');
    await reply.type('text/markdown; charset=utf-8').send(body);
  }
}
