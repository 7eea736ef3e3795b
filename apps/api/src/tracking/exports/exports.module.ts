import { Module } from '@nestjs/common';
import { ProjectsModule } from '../../projects/projects.module';
import { ExportRoutes } from './export.routes';
import { RankingHistory } from './ranking-history';

/** GET /api/projects/export (CSV) and /api/projects/export-agent (Markdown). */
@Module({
  imports: [ProjectsModule],
  controllers: [ExportRoutes],
  providers: [RankingHistory],
})
export class ExportsModule {}
