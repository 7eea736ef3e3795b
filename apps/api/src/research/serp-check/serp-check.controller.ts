import { Body, Controller, HttpCode, HttpException, HttpStatus, Post } from '@nestjs/common';
import { ApiBadGatewayResponse, ApiBearerAuth, ApiOkResponse, ApiProperty, ApiTags, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsString, ValidateBy } from 'class-validator';
import { isCountryCode, isLanguageCode } from '@rank/domain/iso-codes';
import { RateLimits } from '@rank/platform/rate-limits/rate-limits';
import { COMPETITION_LEVELS, Competition } from '@rank/research/domain/volume.events';
import { SerpCheck } from '@rank/research/serp-check/serp-check';
import { AccountCaller, CurrentAccount } from '../../platform/auth/caller';
import { MAX_KEYWORD_LENGTH } from '@rank/domain/keyword-text';
import { RequiredText, TWO_LETTER_CODE_PATTERN } from '../../platform/http/validators';

const twoLetterCode = (test: (code: string) => boolean, what: string) =>
  ValidateBy({
    name: 'twoLetterCode',
    validator: {
      validate: (v: unknown) => typeof v === 'string' && v.length === 2 && test(v),
      defaultMessage: () => `$property must be ${what}`,
    },
  });

class SerpCheckBody {
  @RequiredText(MAX_KEYWORD_LENGTH, { example: 'how to boil eggs' })
  keyword!: string;

  @ApiProperty({ example: 'US', pattern: TWO_LETTER_CODE_PATTERN, description: 'ISO 3166-1 alpha-2 country, any case' })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim().toUpperCase() : value))
  @IsString({ message: 'geo must be an ISO 3166-1 alpha-2 country code such as US' })
  @twoLetterCode(isCountryCode, 'an ISO 3166-1 alpha-2 country code such as US')
  geo!: string;

  @ApiProperty({ example: 'en', pattern: TWO_LETTER_CODE_PATTERN, description: 'ISO 639-1 language, any case' })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value))
  @IsString({ message: 'lang must be an ISO 639-1 language code such as en' })
  @twoLetterCode(isLanguageCode, 'an ISO 639-1 language code such as en')
  lang!: string;
}

class SerpCheckResultView {
  @ApiProperty({ type: 'integer', minimum: 1, example: 1 }) position!: number;
  @ApiProperty() url!: string;
  @ApiProperty() title!: string;
  @ApiProperty() snippet!: string;
}

class VolumeMetricsView {
  @ApiProperty({ type: 'integer', nullable: true }) avgMonthlySearches!: number | null;
  @ApiProperty({ enum: COMPETITION_LEVELS, nullable: true }) competition!: Competition | null;
  @ApiProperty({ type: 'integer', nullable: true, minimum: 0, maximum: 100, description: '0–100' }) competitionIndex!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Low top-of-page bid, USD' }) cpcLow!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'High top-of-page bid, USD' }) cpcHigh!: number | null;
}

class VolumeMonthView {
  @ApiProperty({ type: 'integer', example: 2026 }) year!: number;
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 12, example: 3, description: '1–12' }) month!: number;
  @ApiProperty({ type: 'integer', minimum: 0, example: 1300 }) value!: number;
}

class SerpCheckVolumeView {
  @ApiProperty({ type: 'integer', nullable: true, description: 'Average monthly searches' }) value!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'High top-of-page bid, USD' }) cpc!: number | null;
  @ApiProperty({ enum: COMPETITION_LEVELS, nullable: true }) competition!: Competition | null;
  @ApiProperty({ type: VolumeMetricsView, nullable: true }) metrics!: VolumeMetricsView | null;
  @ApiProperty({ type: [VolumeMonthView], description: 'Monthly history, oldest first; [] without data' }) volume!: VolumeMonthView[];
}

class SerpCheckData {
  @ApiProperty({
    type: [SerpCheckResultView],
    description: 'Organic results of the first page (at most 10); [] when the page could not be loaded but the volume could',
  })
  serp!: SerpCheckResultView[];
  @ApiProperty({ type: SerpCheckVolumeView }) volume!: SerpCheckVolumeView;
}

class SerpCheckResponse {
  @ApiProperty({ enum: [true] }) success!: true;
  @ApiProperty({ type: SerpCheckData }) data!: SerpCheckData;
  @ApiProperty({ type: 'integer', minimum: 0, description: "Calls left in the account's 10-per-60-s window after this one" })
  remaining!: number;
}

@ApiTags('Keyword research')
@ApiBearerAuth()
@Controller('api/tools/serp-check')
export class SerpCheckController {
  constructor(
    private readonly serpCheck: SerpCheck,
    private readonly rateLimits: RateLimits,
  ) {}

  /** A live first results page through the scrapers, with the keyword's volume; 10 per 60 s per account. */
  @Post()
  @HttpCode(200)
  @ApiOkResponse({ type: SerpCheckResponse })
  @ApiTooManyRequestsResponse({ description: '{success: false, message, retryAfter, limit, window} and a Retry-After header' })
  @ApiBadGatewayResponse({ description: 'Both the results page and the volume lookup failed' })
  async check(@CurrentAccount() caller: AccountCaller, @Body() body: SerpCheckBody): Promise<SerpCheckResponse> {
    const { remaining } = await this.rateLimits.take('serpCheck', caller.accountId);
    const outcome = await this.serpCheck.check({
      accountId: caller.accountId,
      keyword: body.keyword,
      geoCode: body.geo,
      langCode: body.lang,
    });
    if (outcome.kind === 'failed') {
      throw new HttpException(
        { success: false, message: 'The results page could not be loaded and the volume lookup failed; try again shortly' },
        HttpStatus.BAD_GATEWAY,
      );
    }
    return { success: true, data: { serp: outcome.serp, volume: outcome.volume }, remaining };
  }
}
