import { ApiProperty } from '@nestjs/swagger';
import type { TrackedKeyword } from '@rank/projects/domain/project-content.events';

export const UPDATE_STATUSES = ['success', 'failed'] as const;
export type UpdateStatus = (typeof UPDATE_STATUSES)[number];

export class RankedPositionView {
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: '1-based organic rank; 0 = not within the scraped depth (top 30 for a competitor)',
    example: 4,
  })
  position!: number;
  @ApiProperty({ description: 'The ranking URL; empty when position is 0' }) url!: string;
  @ApiProperty({ description: "The ranking result's title; empty when position is 0" }) title!: string;
  @ApiProperty({ description: 'Normalised host of the ranking URL; empty when position is 0', example: 'example.com' }) domain!: string;
}

/** One dated check result (spec: Keyword update). */
export class KeywordUpdateView {
  @ApiProperty({ description: 'The check id; pass it as keywordUpdateId to position-history', example: '6740a1b2c3d4e5f601234567' })
  _id!: string;
  @ApiProperty({ format: 'date-time', description: 'When the check completed (UTC)' }) date!: string;
  @ApiProperty({ enum: UPDATE_STATUSES }) status!: UpdateStatus;
  @ApiProperty({ type: RankedPositionView, nullable: true, description: 'null when the check failed (a failure is never "not ranking")' })
  position!: RankedPositionView | null;
  @ApiProperty({ type: String, nullable: true, description: 'The check id when that result page had an AI Overview, else null' })
  aiSerpId!: string | null;
}

/** The keyword fields every ranking read repeats. */
export class KeywordRefView {
  @ApiProperty({ example: '6740a1b2c3d4e5f601234568' }) _id!: string;
  @ApiProperty({ example: 'running shoes' }) value!: string;
  @ApiProperty({ example: 'US' }) geoCode!: string;
  @ApiProperty({ example: 'en' }) langCode!: string;
}

export const toKeywordRef = (keyword: TrackedKeyword): KeywordRefView => ({
  _id: keyword.keywordId,
  value: keyword.value,
  geoCode: keyword.geoCode,
  langCode: keyword.langCode,
});

/**
 * A chosen check as the queries return it. The position columns describe whoever the read is
 * about: the project (keyword-updates) or a competitor (competitor-positions).
 */
export interface CheckRow {
  keywordId: string;
  checkId: string;
  /** Milliseconds since the epoch, as text (ClickHouse 64-bit integers arrive as strings). */
  checkedAtMs: string;
  status: string;
  position: number;
  url: string;
  title: string;
  domain: string;
  hasAiOverview: number;
}

export const isoOfMillis = (millis: string): string => new Date(Number(millis)).toISOString();

export function toKeywordUpdateView(row: CheckRow): KeywordUpdateView {
  const succeeded = row.status === 'success';
  return {
    _id: row.checkId,
    date: isoOfMillis(row.checkedAtMs),
    status: succeeded ? 'success' : 'failed',
    position: succeeded ? { position: row.position, url: row.url, title: row.title, domain: row.domain } : null,
    aiSerpId: succeeded && row.hasAiOverview ? row.checkId : null,
  };
}

/** Groups rows (already oldest first) by keyword id. */
export function updatesByKeyword(rows: readonly CheckRow[]): Map<string, KeywordUpdateView[]> {
  const byKeyword = new Map<string, KeywordUpdateView[]>();
  for (const row of rows) {
    const updates = byKeyword.get(row.keywordId) ?? [];
    updates.push(toKeywordUpdateView(row));
    byKeyword.set(row.keywordId, updates);
  }
  return byKeyword;
}
