import { Module } from '@nestjs/common';
import { ProjectsModule } from '@rank/projects/projects.module';
import { ExportRoutes } from './export.controller';
import { RankingHistory } from '@rank/tracking/exports/ranking-history.reader';

/** GET /api/projects/export (CSV) and /api/projects/export-agent (Markdown). */
@Module({
  imports: [ProjectsModule],
  controllers: [ExportRoutes],
  providers: [RankingHistory],
})
export class ExportsModule {}
