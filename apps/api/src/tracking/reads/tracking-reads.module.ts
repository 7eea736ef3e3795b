import { Module } from '@nestjs/common';
import { ProjectsModule } from '../../projects/projects.module';
import { CompetitorPositionsQuery } from './competitor-positions/competitor-positions.query';
import { CompetitorPositionsRoute } from './competitor-positions/competitor-positions.route';
import { KeywordUpdatesQuery } from './keyword-updates/keyword-updates.query';
import { KeywordUpdatesRoute } from './keyword-updates/keyword-updates.route';
import { PagesQuery } from './pages/pages.query';
import { PagesRoute } from './pages/pages.route';
import { PositionHistoryQuery } from './position-history/position-history.query';
import { PositionHistoryRoute } from './position-history/position-history.route';

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
