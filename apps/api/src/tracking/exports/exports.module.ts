import { Module } from '@nestjs/common';
import { ProjectsModule } from '@rank/projects/projects.module';
import { ExportController } from './export.controller';
import { RankingHistoryReader } from '@rank/tracking/exports/ranking-history.reader';

/** GET /api/projects/export (CSV) and /api/projects/export-agent (Markdown). */
@Module({
  imports: [ProjectsModule],
  controllers: [ExportController],
  providers: [RankingHistoryReader],
})
export class ExportsModule {}
