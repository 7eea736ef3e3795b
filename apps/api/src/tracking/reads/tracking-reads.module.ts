import { Module } from '@nestjs/common';
import { ProjectsModule } from '@rank/projects/projects.module';
import { ResearchModule } from '@rank/research/research.module';
import { CompetitorPositionsReader } from '@rank/tracking/reads/competitor-positions/competitor-positions.reader';
import { CompetitorPositionsController } from './competitor-positions.controller';
import { KeywordUpdatesReader } from '@rank/tracking/reads/keyword-updates/keyword-updates.reader';
import { KeywordUpdatesController } from './keyword-updates.controller';
import { PagesReader } from '@rank/tracking/reads/pages/pages.reader';
import { PagesController } from './pages.controller';
import { PositionHistoryReader } from '@rank/tracking/reads/position-history/position-history.reader';
import { PositionHistoryController } from './position-history.controller';
import { SearchVolumesModule } from '../../research/search-volumes.module';

/**
 * The ranking reads: keyword updates, SERP snapshots, competitor positions and pages, answered from
 * the ClickHouse tracking tables (built from the checks streams) and the event-sourced keyword list.
 */
@Module({
  imports: [ProjectsModule, ResearchModule, SearchVolumesModule],
  controllers: [KeywordUpdatesController, PositionHistoryController, CompetitorPositionsController, PagesController],
  providers: [KeywordUpdatesReader, PositionHistoryReader, CompetitorPositionsReader, PagesReader],
})
export class TrackingReadsModule {}
