import { ApiProperty } from '@nestjs/swagger';

/**
 * The documented shapes of cached domain data (libs/domains/src/reads/domain-views.ts builds them),
 * so that the OpenAPI document and the generated client say what the fields are instead of `object`.
 * Scores are whole 0–100 figures and timings whole milliseconds (clarifications: "scores 0–100
 * rounded", lab timings rounded to ms); CLS and engagement figures are fractional.
 */

export class MonthlyVisitsDto {
  @ApiProperty({ example: 'example.com' }) domain!: string;
  @ApiProperty({ example: '2026-04', pattern: '^\\d{4}-\\d{2}$', description: 'YYYY-MM' }) month!: string;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Estimated visits of the month; null when the provider has no figure' })
  visits!: number | null;
}

export class TrafficStatsDto {
  @ApiProperty({ example: 'example.com' }) domain!: string;
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Sum of the last 12 months' }) totalVisits!: number;
  @ApiProperty({ format: 'date-time' }) fetchedAt!: string;
}

export class EngagementMetricsDto {
  @ApiProperty({ type: Number, nullable: true, minimum: 0, maximum: 1, description: 'Share of one-page visits, 0–1' })
  bounceRate!: number | null;
  @ApiProperty({ type: Number, nullable: true, minimum: 0, description: 'Seconds' }) avgVisitDuration!: number | null;
}

export class EngagedTrafficStatsDto extends TrafficStatsDto {
  @ApiProperty({ type: EngagementMetricsDto }) engagementMetrics!: EngagementMetricsDto;
}

/** webtraffic's `data`. */
export class TrafficDto {
  @ApiProperty({ type: TrafficStatsDto }) stats!: TrafficStatsDto;
  @ApiProperty({ type: [MonthlyVisitsDto], description: 'At most 12 months, oldest first' }) monthlyVisits!: MonthlyVisitsDto[];
}

/** traffic-check's `data`. */
export class EngagedTrafficDto {
  @ApiProperty({ type: EngagedTrafficStatsDto }) stats!: EngagedTrafficStatsDto;
  @ApiProperty({ type: [MonthlyVisitsDto], description: 'At most 12 months, oldest first' }) monthlyVisits!: MonthlyVisitsDto[];
}

export class MillisecondsPercentileDto {
  @ApiProperty({ type: 'integer', nullable: true, description: '75th percentile, ms; null when too little data' }) p75!: number | null;
}

export class UnitlessPercentileDto {
  @ApiProperty({ type: Number, nullable: true, description: '75th percentile (unitless); null when too little data' }) p75!: number | null;
}

export class CruxFieldDataDto {
  @ApiProperty({ type: MillisecondsPercentileDto }) LCP!: MillisecondsPercentileDto;
  @ApiProperty({ type: UnitlessPercentileDto }) CLS!: UnitlessPercentileDto;
  @ApiProperty({ type: MillisecondsPercentileDto }) INP!: MillisecondsPercentileDto;
}

const score = (what: string) => ({ type: 'integer', nullable: true, minimum: 0, maximum: 100, description: `${what}, 0–100` }) as const;
const milliseconds = (what: string) => ({ type: 'integer', nullable: true, minimum: 0, description: `${what}, ms` }) as const;
const CRUX_SCORE = {
  ...score('Share of the measured core web vitals that are good at p75'),
  description: 'Share of the measured core web vitals that are good at p75, 0–100; null without field data',
} as const;
const CLS = { type: Number, nullable: true, minimum: 0, description: 'Cumulative layout shift (unitless)' } as const;

/** pagespeed's `data`: a domain's page-speed record. */
export class PageSpeedRecordDto {
  @ApiProperty({ example: 'example.com' }) domain!: string;
  @ApiProperty(score('Lighthouse performance')) performanceScore!: number | null;
  @ApiProperty(score('Lighthouse accessibility')) accessibilityScore!: number | null;
  @ApiProperty(score('Lighthouse best practices')) bestPracticesScore!: number | null;
  @ApiProperty(score('Lighthouse SEO')) seoScore!: number | null;
  @ApiProperty(CRUX_SCORE) cruxScore!: number | null;
  @ApiProperty(milliseconds('Largest contentful paint')) largestContentfulPaint!: number | null;
  @ApiProperty(milliseconds('First contentful paint')) firstContentfulPaint!: number | null;
  @ApiProperty(CLS) cumulativeLayoutShift!: number | null;
  @ApiProperty(milliseconds('Total blocking time')) totalBlockingTime!: number | null;
  @ApiProperty({ type: CruxFieldDataDto, nullable: true, description: 'Field data (CrUX) at p75; null when there is none' })
  cruxFieldData!: CruxFieldDataDto | null;
  @ApiProperty({ enum: ['psi', 'lighthouse'], description: 'Who measured it: PageSpeed Insights or our own Lighthouse' }) source!: string;
  @ApiProperty({ format: 'date-time' }) fetchedAt!: string;
}

/** traffic-check's `pagespeed`. */
export class PageSpeedSummaryDto {
  @ApiProperty({ example: 'example.com' }) domain!: string;
  @ApiProperty(score('Lighthouse performance')) performanceScore!: number | null;
  @ApiProperty(CRUX_SCORE) cruxScore!: number | null;
  @ApiProperty(milliseconds('Largest contentful paint')) largestContentfulPaint!: number | null;
  @ApiProperty(CLS) cumulativeLayoutShift!: number | null;
  @ApiProperty({ format: 'date-time' }) fetchedAt!: string;
}

/** One page of pages-pagespeed (also its `baseline`). */
export class PagePageSpeedDto {
  @ApiProperty({ example: 'https://example.com/shoes' }) url!: string;
  @ApiProperty({ example: '/shoes' }) path!: string;
  @ApiProperty(score('Lighthouse performance')) performanceScore!: number | null;
  @ApiProperty(score('Lighthouse accessibility')) accessibilityScore!: number | null;
  @ApiProperty(score('Lighthouse best practices')) bestPracticesScore!: number | null;
  @ApiProperty(score('Lighthouse SEO')) seoScore!: number | null;
  @ApiProperty(milliseconds('Largest contentful paint')) largestContentfulPaint!: number | null;
  @ApiProperty(milliseconds('First contentful paint')) firstContentfulPaint!: number | null;
  @ApiProperty(CLS) cumulativeLayoutShift!: number | null;
  @ApiProperty(milliseconds('Total blocking time')) totalBlockingTime!: number | null;
  @ApiProperty({
    enum: ['psi', 'lighthouse', 'domain'],
    description: "Who measured it; `domain` for a baseline taken from the domain's snapshot",
  })
  source!: string;
  @ApiProperty({ format: 'date-time' }) measuredAt!: string;
}

/** One collection period of the origin's CrUX history. */
export class CruxOriginPointDto {
  @ApiProperty({ example: 'example.com' }) domain!: string;
  @ApiProperty({ format: 'date', example: '2026-04-26', description: "The collection period's last day" }) date!: string;
  @ApiProperty({ type: MillisecondsPercentileDto }) lcp!: MillisecondsPercentileDto;
  @ApiProperty({ type: UnitlessPercentileDto }) cls!: UnitlessPercentileDto;
}

export class CruxPagePointDto {
  @ApiProperty({ format: 'date', example: '2026-04-26', description: "The collection period's last day" }) date!: string;
  @ApiProperty({ type: MillisecondsPercentileDto }) lcp!: MillisecondsPercentileDto;
}

export class CruxPageHistoryDto {
  @ApiProperty({ example: 'https://example.com/shoes' }) url!: string;
  @ApiProperty({ example: '/shoes' }) path!: string;
  @ApiProperty({ type: [CruxPagePointDto], description: 'Oldest first' }) data!: CruxPagePointDto[];
}

export class CompetitorMonthDto {
  @ApiProperty({ example: '2026-04', pattern: '^\\d{4}-\\d{2}$', description: 'YYYY-MM' }) month!: string;
  @ApiProperty({ type: 'integer', nullable: true }) visits!: number | null;
}

export class CompetitorPageSpeedDto {
  @ApiProperty(CRUX_SCORE) cruxScore!: number | null;
}

/** One competitor of competitors-filtered's `data`. */
export class CompetitorTrafficDto {
  @ApiProperty({ type: TrafficStatsDto }) stats!: TrafficStatsDto;
  @ApiProperty({ type: [CompetitorMonthDto], description: 'At most 12 months, oldest first' }) monthlyVisits!: CompetitorMonthDto[];
  @ApiProperty({ type: CompetitorPageSpeedDto }) pageSpeed!: CompetitorPageSpeedDto;
}
