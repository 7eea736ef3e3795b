import { Controller, Get, Inject, Query, Res } from '@nestjs/common';
import { clientGone } from '../../platform/http/client-gone';
import type { FastifyReply } from 'fastify';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { utcDay } from '@rank/domain/calendar-date';
import { PublicWhenShared } from '../../platform/auth/access.decorators';
import { Caller, CurrentCaller } from '../../platform/auth/caller';
import { CLOCK, Clock } from '@rank/platform/tokens';
import { ProjectAccess } from '@rank/projects/project-access';
import { ProjectContentRepository } from '@rank/projects/workspace.repository';
import { isoOfMillis } from '@rank/tracking/reads/shared/keyword-update.view';
import { keywordFilterOf } from '@rank/tracking/reads/shared/keyword-filter';
import { RequiredObjectIdQuery } from './query-fields';
import { granularityOf, roundTo2, seriesOf, TrendGranularity, trendPeriods } from '@rank/tracking/reads/pages/page-trend';
import { PagesReader, PeriodRow } from '@rank/tracking/reads/pages/pages.reader';

class PagesParams {
  @RequiredObjectIdQuery()
  projectId!: string;
}

class RankingPageKeywordView {
  @ApiProperty() keywordId!: string;
  @ApiProperty() value!: string;
  @ApiProperty({ type: 'integer', minimum: 1, description: "Position in the keyword's latest successful check" }) position!: number;
}

class PageTrendPointView {
  @ApiProperty({ format: 'date', description: 'The day, or the Monday of the ISO week' }) date!: string;
  @ApiProperty({ type: Number, nullable: true, description: '2 decimals; null when the page ranked for nothing in that period' })
  avgPosition!: number | null;
  @ApiProperty({ type: 'integer', minimum: 0 }) keywordCount!: number;
}

class PageWeeklyPointView {
  @ApiProperty({ format: 'date', description: 'Monday of the ISO week' }) weekStart!: string;
  @ApiProperty({ type: Number, nullable: true }) avgPosition!: number | null;
  @ApiProperty({ type: 'integer', minimum: 0 }) keywordCount!: number;
}

class RankingPageView {
  @ApiProperty({ example: 'https://example.com/shoes' }) url!: string;
  @ApiProperty({ example: '/shoes' }) path!: string;
  @ApiProperty({ type: 'integer', minimum: 0 }) keywordCount!: number;
  @ApiProperty({ description: "Average of the keywords' current positions, 2 decimals" }) avgPosition!: number;
  @ApiProperty({ type: 'integer', minimum: 1 }) bestPosition!: number;
  @ApiProperty({ type: [RankingPageKeywordView], description: 'Best position first' }) keywords!: RankingPageKeywordView[];
  @ApiProperty({ type: [PageTrendPointView], description: '14 points: ISO weeks ending with the current one, or the last 14 days' })
  avgPositionTrend!: PageTrendPointView[];
  @ApiProperty({
    enum: ['week', 'day'],
    description: "day when all of the page's ranking history in the last 90 days lies within the last 14 days",
  })
  avgPositionTrendGranularity!: TrendGranularity;
  @ApiProperty({ type: [PageWeeklyPointView], description: 'The 14 weekly points, whatever the trend granularity' })
  weeklyAvgPositions!: PageWeeklyPointView[];
}

class PagesResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty({ type: [RankingPageView], description: 'Worst average position first' }) data!: RankingPageView[];
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Newest successful check the pages were built from; null when none',
  })
  lastPagesUpdate!: string | null;
}

const pathOf = (url: string) => {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
};

/** Rows of one kind, indexed by page and then by period. */
function byPage(rows: readonly PeriodRow[]): Map<string, Map<string, PeriodRow>> {
  const pages = new Map<string, Map<string, PeriodRow>>();
  for (const row of rows) pages.set(row.url, (pages.get(row.url) ?? new Map()).set(row.period, row));
  return pages;
}

@ApiTags('Performance')
@ApiBearerAuth()
@Controller('api/projects/pages')
export class PagesController {
  constructor(
    private readonly access: ProjectAccess,
    private readonly contents: ProjectContentRepository,
    private readonly pages: PagesReader,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * The site's ranking pages. A keyword counts for the page that is the ranking URL of its latest
   * successful check; a keyword at 0 there counts for no page. Public when the project is shared.
   */
  @Get()
  @PublicWhenShared()
  @ApiOkResponse({ type: PagesResponse })
  async list(
    @CurrentCaller() caller: Caller,
    @Query() params: PagesParams,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<PagesResponse> {
    const { project } = await this.access.readable(caller, params.projectId);
    const { keywords, removedKeywordIds } = await this.contents.load(project.projectId);
    if (keywords.length === 0) return { success: true, data: [], lastPagesUpdate: null };

    const tracked = new Map(keywords.map((k) => [k.keywordId, k]));
    const trackedIds = [...tracked.keys()];
    const now = this.clock.now();
    const { weeks, days, window } = trendPeriods(utcDay(now));
    const overview = await this.pages
      .forCaller(clientGone(reply))
      .overview(project.projectId, trackedIds, keywordFilterOf(trackedIds, removedKeywordIds), window, now);
    const latest = overview.latest.filter((row) => tracked.has(row.keywordId));
    const keywordsOfPage = new Map<string, RankingPageKeywordView[]>();
    let newestCheck: number | null = null;
    for (const row of latest) {
      newestCheck = Math.max(newestCheck ?? 0, Number(row.checkedAtMs));
      if (row.position === 0) continue;
      const list = keywordsOfPage.get(row.url) ?? [];
      list.push({ keywordId: row.keywordId, value: tracked.get(row.keywordId)!.value, position: row.position });
      keywordsOfPage.set(row.url, list);
    }
    const lastPagesUpdate = newestCheck === null ? null : isoOfMillis(String(newestCheck));
    if (keywordsOfPage.size === 0) return { success: true, data: [], lastPagesUpdate };

    // The trends are of every page the counted keywords ranked with; the answer keeps those of keywordsOfPage.
    const { trends } = overview;
    const weekly = byPage(trends.weekly);
    const daily = byPage(trends.daily);
    const firstDays = new Map(trends.firstDays.map((row) => [row.url, row.firstDay]));

    const data = [...keywordsOfPage].map(([url, pageKeywords]): RankingPageView => {
      pageKeywords.sort((a, b) => a.position - b.position || a.value.localeCompare(b.value, 'en'));
      const positions = pageKeywords.map((k) => k.position);
      const weeklySeries = seriesOf(weeks, weekly.get(url) ?? new Map());
      const granularity = granularityOf(firstDays.get(url), days);
      return {
        url,
        path: pathOf(url),
        keywordCount: pageKeywords.length,
        avgPosition: roundTo2(positions.reduce((sum, p) => sum + p, 0) / positions.length),
        bestPosition: Math.min(...positions),
        keywords: pageKeywords,
        avgPositionTrend: granularity === 'day' ? seriesOf(days, daily.get(url) ?? new Map()) : weeklySeries,
        avgPositionTrendGranularity: granularity,
        weeklyAvgPositions: weeklySeries.map(({ date, avgPosition, keywordCount }) => ({ weekStart: date, avgPosition, keywordCount })),
      };
    });
    // Worst first, so the pages that need work lead; equal averages by URL, for a stable order.
    data.sort((a, b) => b.avgPosition - a.avgPosition || a.url.localeCompare(b.url));
    return { success: true, data, lastPagesUpdate };
  }
}
