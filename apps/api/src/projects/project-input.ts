import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import {
  applySettingsChange,
  ProjectSettings,
  SERP_DEPTHS,
  SettingsChange,
  SerpDepth,
  UPDATE_FREQUENCIES,
  UpdateFrequency,
} from '@rank/projects/domain/project-settings';
import { invalid } from '@rank/domain/domain-error';
import { normaliseDomain } from '@rank/domain/domain-name';
import { isObjectId } from '@rank/domain/object-id';
import { RequiredText } from '../platform/http/validators';
import { MultilineText } from '../platform/http/well-formed-input';

/**
 * The spec allows "an icon identifier or URL"; clients render it, so a URL must be http(s) (never
 * `javascript:` or `data:`) and an identifier has no scheme at all. Empty means no icon. Written
 * without a regular-expression flag (the scheme in either case), since the document shows it as is.
 */
const ICON_PATTERN = '^(?:[Hh][Tt][Tt][Pp][Ss]?://\\S+|[A-Za-z0-9][A-Za-z0-9._-]{0,63})?$';
const ICON = new RegExp(ICON_PATTERN);

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** The settings fields that create and update share (spec: Project table). */
export class ProjectSettingsBody {
  @RequiredText(200, { example: 'My shop' })
  name!: string;

  @RequiredText(253, {
    example: 'example.com',
    description:
      'A domain name, or a URL whose host is taken; lowercased and normalised server-side (`https://www.Example.com/x` is `example.com`)',
  })
  domain!: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    pattern: '^([0-9a-f]{24})?$',
    description: 'Folder id; null or an empty string takes the project out of its folder',
  })
  @IsOptional()
  @Transform(trim)
  @IsString()
  folder?: string | null;

  @ApiPropertyOptional({
    maxLength: 2048,
    pattern: ICON_PATTERN,
    description: 'An http(s) URL, or an icon identifier (letters, digits, `.`, `_`, `-`; at most 64); empty for none',
    example: 'https://example.com/favicon.ico',
  })
  @IsOptional()
  @IsString()
  @MaxLength(2048)
  @Matches(ICON, { message: 'icon must be an http(s) URL or an icon identifier (letters, digits, ".", "_", "-")' })
  icon?: string;

  @ApiPropertyOptional({
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    description: 'Comma- or newline-separated domains, or an array of domains',
    example: 'example.org, example.net',
  })
  @IsOptional()
  @MultilineText()
  aliases?: string | string[];

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  shared?: boolean;

  @ApiPropertyOptional({ enum: UPDATE_FREQUENCIES, default: 'daily' })
  @IsOptional()
  @IsIn(UPDATE_FREQUENCIES)
  updateFrequency?: UpdateFrequency;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'integer', minimum: 0, maximum: 6 },
    maxItems: 7,
    description: 'Weekdays 0-6 (0 = Sunday); required and not empty when updateFrequency is custom, dropped otherwise',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(7)
  @IsInt({ each: true })
  @Min(0, { each: true })
  @Max(6, { each: true })
  customUpdateDays?: number[];

  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 23, default: 12 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(23)
  updateTime?: number;

  @ApiPropertyOptional({ default: 'UTC', example: 'Europe/Berlin', description: 'An IANA time zone name, any case' })
  @IsOptional()
  @IsString()
  updateTimezone?: string;

  @ApiPropertyOptional({ type: 'integer', enum: SERP_DEPTHS, default: 50 })
  @IsOptional()
  @IsIn(SERP_DEPTHS)
  serpTop?: SerpDepth;
}

/**
 * An IANA time zone name as the zone database spells it, or null for no zone. Zone names are matched
 * without case, and the project shows and exports the name: `europe/paris` is kept as `Europe/Paris`.
 * Node's ICU answers some names by another one of the database (`Asia/Kathmandu` by its old spelling
 * `Asia/Katmandu`, `US/Eastern` by `America/New_York`): such a name is kept as the caller wrote it,
 * unless it is all lower case (its right case unknown here), when ICU's name stands in for it.
 */
function ianaTimeZone(name: string): string | null {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name)) return null;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  if (resolved.toLowerCase() === name.toLowerCase() || name === name.toLowerCase()) return resolved;
  return name;
}

function domainOrThrow(field: string, raw: string): string {
  const domain = normaliseDomain(raw);
  if (domain === null || !domain.includes('.')) throw invalid(`${field} must be a domain name such as example.com (got "${raw}")`);
  return domain;
}

/** Domains from "a.com, b.com\nc.com" (any line break the input takes: LF, U+2028, U+2029) or an array: normalised, without duplicates or the main domain. */
export function parseDomainList(field: string, input: string | string[] | undefined, exclude: string): string[] | undefined {
  if (input === undefined) return undefined;
  const parts = Array.isArray(input) ? input : typeof input === 'string' ? input.split(/[,\n\r\u2028\u2029]+/) : null;
  if (parts === null || parts.some((p) => typeof p !== 'string'))
    throw invalid(`${field} must be a string of comma- or newline-separated domains`);
  const domains = parts
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => domainOrThrow(field, p));
  return [...new Set(domains)].filter((d) => d !== exclude);
}

/**
 * What a create or update body says of the settings, each field checked and normalised; fields that
 * are absent are left out, to keep their value (`applySettingsChange`).
 */
export function settingsChangeOf(body: ProjectSettingsBody): SettingsChange {
  const domain = domainOrThrow('domain', body.domain);
  const updateTimezone = body.updateTimezone === undefined ? undefined : ianaTimeZone(body.updateTimezone);
  if (updateTimezone === null)
    throw invalid(`updateTimezone must be an IANA time zone name such as Europe/Berlin (got "${body.updateTimezone}")`);
  const sent = <K extends keyof SettingsChange>(key: K, value: SettingsChange[K] | undefined) =>
    value === undefined ? {} : { [key]: value };
  return {
    name: body.name,
    domain,
    ...sent('aliases', parseDomainList('aliases', body.aliases, domain)),
    ...sent('icon', body.icon),
    ...sent('shared', body.shared),
    ...sent('updateFrequency', body.updateFrequency),
    ...sent('customUpdateDays', body.customUpdateDays && [...new Set(body.customUpdateDays)].sort((a, b) => a - b)),
    ...sent('updateTime', body.updateTime),
    ...sent('updateTimezone', updateTimezone),
    ...sent('serpTop', body.serpTop),
  };
}

/** A new project's settings: the body's, the defaults for what it leaves out. */
export const newProjectSettings = (body: ProjectSettingsBody): ProjectSettings => applySettingsChange(settingsChangeOf(body));

/** A folder reference: undefined (not given), null (none) or an id. "" means none. */
export function parseFolder(raw: string | null | undefined): string | null | undefined {
  if (raw === undefined) return undefined;
  if (raw === null || raw === '') return null;
  if (!isObjectId(raw)) throw invalid('folder must be a 24-character hex id, or an empty string for no folder');
  return raw;
}

export class CompetitorsField {
  @ApiProperty({ type: [String], required: false })
  competitors?: string[];
}
