import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { invalid } from '@rank/domain/domain-error';
import { utcDay } from '@rank/domain/calendar-date';
import { ObjectIdField } from '../../platform/http/validators';
import { OptionalCalendarDateQuery } from '../reads/query-fields';
import type { DayRange } from '@rank/tracking/exports/ranking-history.reader';
import { CSV_FORMATS, CsvFormat } from '@rank/tracking/exports/csv-exports';

/** Days in the default window before its end day (the spec's "last 30 days", as keyword-updates has it). */
export const DEFAULT_WINDOW_DAYS = 30;

export class CsvExportQuery {
  @ObjectIdField()
  projectId!: string;

  @ApiPropertyOptional({ enum: CSV_FORMATS, default: 'full' })
  @IsOptional()
  @IsIn(CSV_FORMATS)
  format?: CsvFormat;

  @OptionalCalendarDateQuery(`First day (UTC); default ${DEFAULT_WINDOW_DAYS} days before endDate`)
  startDate?: string;

  @OptionalCalendarDateQuery('Last day (UTC), inclusive; default today')
  endDate?: string;
}

export class AgentReportQuery {
  @ObjectIdField()
  projectId!: string;
}

const addDays = (day: string, days: number) => utcDay(new Date(Date.parse(`${day}T00:00:00.000Z`) + days * 86_400_000));

/**
 * The export's days. The default start is counted back from the end day (not from today), so that
 * `endDate` alone gives the 30 days before it rather than an empty or inverted window.
 */
export function exportWindow(query: Pick<CsvExportQuery, 'startDate' | 'endDate'>, now: Date): DayRange {
  const endDate = query.endDate ?? utcDay(now);
  const startDate = query.startDate ?? addDays(endDate, -DEFAULT_WINDOW_DAYS);
  if (startDate > endDate) throw invalid(`startDate (${startDate}) must not be after endDate (${endDate})`);
  return { startDate, endDate };
}
