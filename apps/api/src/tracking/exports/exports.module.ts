import { Module } from '@nestjs/common';
import { ProjectsModule } from '@rank/projects/projects.module';
import { ResearchModule } from '@rank/research/research.module';
import { DomainsModule } from '@rank/domains/domains.module';
import { ExportController } from './export.controller';
import { SearchVolumesModule } from '../../research/search-volumes.module';
import { RankingHistoryReader } from '@rank/tracking/exports/ranking-history.reader';

/** GET /api/projects/export (CSV) and /api/projects/export-agent (Markdown). */
@Module({
  imports: [ProjectsModule, ResearchModule, DomainsModule, SearchVolumesModule],
  controllers: [ExportController],
  providers: [RankingHistoryReader],
})
export class ExportsModule {}
