import { Module } from '@nestjs/common';
import { ProjectsModule } from '@rank/projects/projects.module';
import { CompetitorPositionsQuery } from '@rank/tracking/reads/competitor-positions/competitor-positions.reader';
import { CompetitorPositionsRoute } from './competitor-positions.controller';
import { KeywordUpdatesQuery } from '@rank/tracking/reads/keyword-updates/keyword-updates.reader';
import { KeywordUpdatesRoute } from './keyword-updates.controller';
import { PagesQuery } from '@rank/tracking/reads/pages/pages.reader';
import { PagesRoute } from './pages.controller';
import { PositionHistoryQuery } from '@rank/tracking/reads/position-history/position-history.reader';
import { PositionHistoryRoute } from './position-history.controller';

/**
 * The ranking reads: keyword updates, SERP snapshots, competitor positions and pages, answered from
 * the ClickHouse tracking tables (built from the checks streams) and the event-sourced keyword list.
 */
@Module({
  imports: [ProjectsModule],
  controllers: [KeywordUpdatesRoute, PositionHistoryRoute, CompetitorPositionsRoute, PagesRoute],
  providers: [KeywordUpdatesQuery, PositionHistoryQuery, CompetitorPositionsQuery, PagesQuery],
})
export class TrackingReadsModule {}
