import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiProperty, ApiTags, PickType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { MAX_API_KEY_NAME_LENGTH } from '@rank/accounts/domain/account';
import { IssueApiKey } from '@rank/accounts/api-keys/issue-api-key';
import { AccountCaller, CurrentAccount } from '../../platform/auth/caller';
import { CLOCK, Clock } from '@rank/platform/tokens';
import { ApiKeyView } from './api-key.view';

export class CreateApiKeyBody {
  @ApiProperty({ maxLength: MAX_API_KEY_NAME_LENGTH, example: 'reporting script' })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_API_KEY_NAME_LENGTH)
  name!: string;
}

class CreatedApiKey extends PickType(ApiKeyView, ['_id', 'name', 'keyPrefix', 'createdAt'] as const) {}

class CreateApiKeyResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty({ description: 'The full secret: shown this once, never again' }) key!: string;
  @ApiProperty({ type: CreatedApiKey }) apiKey!: CreatedApiKey;
}

@ApiTags('API keys')
@ApiBearerAuth()
@Controller('api/user/api-keys')
export class CreateApiKeyController {
  constructor(
    private readonly issueApiKey: IssueApiKey,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiCreatedResponse({ type: CreateApiKeyResponse })
  async create(@CurrentAccount() caller: AccountCaller, @Body() body: CreateApiKeyBody): Promise<CreateApiKeyResponse> {
    return { success: true, ...(await this.issueApiKey.issue(caller.accountId, body.name, this.clock.now())) };
  }
}
