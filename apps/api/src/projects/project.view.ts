import { ApiProperty } from '@nestjs/swagger';
import type { ProjectContentState } from '@rank/projects/domain/project-content';
import { SERP_DEPTHS, UPDATE_FREQUENCIES } from '@rank/projects/domain/project-settings';
import type { Folder, ProjectRecord } from '@rank/projects/domain/workspace';

export class ProjectView {
  @ApiProperty({ example: '6740a1b2c3d4e5f601234567' }) _id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ example: 'example.com' }) domain!: string;
  @ApiProperty({ type: [String] }) aliases!: string[];
  @ApiProperty({ type: [String] }) competitors!: string[];
  @ApiProperty({ type: String, nullable: true }) folder!: string | null;
  @ApiProperty() icon!: string;
  @ApiProperty() shared!: boolean;
  @ApiProperty({ enum: UPDATE_FREQUENCIES }) updateFrequency!: string;
  @ApiProperty({ type: 'integer', isArray: true, description: 'Weekdays 0-6 (0 = Sunday)' }) customUpdateDays!: number[];
  @ApiProperty({ type: 'integer', minimum: 0, maximum: 23 }) updateTime!: number;
  @ApiProperty({ example: 'UTC' }) updateTimezone!: string;
  @ApiProperty({ type: 'integer', enum: SERP_DEPTHS }) serpTop!: number;
  @ApiProperty({ format: 'date-time' }) createdDate!: string;
}

export class ProjectKeywordView {
  @ApiProperty() _id!: string;
  @ApiProperty() keyword!: string;
  @ApiProperty({ example: 'US' }) geoCode!: string;
  @ApiProperty({ example: 'en' }) langCode!: string;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Average monthly searches from the stored keyword volumes; null while unknown',
  })
  avgMonthlySearches!: number | null;
}

/** How the checks asked for on the project's last check day stand, so that a client can see a bad day. */
export class CheckDayView {
  @ApiProperty({
    format: 'date',
    example: '2026-05-04',
    description: "The UTC day of the project's latest check request (scheduled or on demand)",
  })
  date!: string;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Checks of that day with a stored result' }) checked!: number;
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Checks of that day that failed for good (every source, and for a scheduled check every try of its day)',
  })
  failed!: number;
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Checks of that day still waiting for a scraper, or for a retry later that day',
  })
  pending!: number;
}

export class ProjectDetailView extends ProjectView {
  @ApiProperty({ type: [ProjectKeywordView] }) keywords!: ProjectKeywordView[];
  @ApiProperty({ type: CheckDayView, nullable: true, description: "The project's last check day, counted; null before its first check" })
  lastCheckDay!: CheckDayView | null;
}

export class FolderView {
  @ApiProperty() _id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Display order, from 0' }) position!: number;
}

export function toProjectView(project: ProjectRecord): ProjectView {
  const s = project.settings;
  return {
    _id: project.projectId,
    name: s.name,
    domain: s.domain,
    aliases: s.aliases,
    competitors: project.competitors,
    folder: project.folder,
    icon: s.icon,
    shared: s.shared,
    updateFrequency: s.updateFrequency,
    customUpdateDays: s.customUpdateDays,
    updateTime: s.updateTime,
    updateTimezone: s.updateTimezone,
    serpTop: s.serpTop,
    createdDate: project.createdAt,
  };
}

/** `volumes`: average monthly searches by keyword id, for the keywords that have them. */
export function toProjectDetail(
  project: ProjectRecord,
  content: ProjectContentState,
  volumes: ReadonlyMap<string, number | null>,
  lastCheckDay: CheckDayView | null = null,
): ProjectDetailView {
  return {
    ...toProjectView(project),
    lastCheckDay,
    keywords: content.keywords.map((k) => ({
      _id: k.keywordId,
      keyword: k.value,
      geoCode: k.geoCode,
      langCode: k.langCode,
      avgMonthlySearches: volumes.get(k.keywordId) ?? null,
    })),
  };
}

export const toFolderView = (folder: Folder): FolderView => ({ _id: folder.folderId, name: folder.name, position: folder.position });

/** Folders ordered by position, as lists show them. */
export const toFolderViews = (folders: readonly Folder[]) => [...folders].sort((a, b) => a.position - b.position).map(toFolderView);
