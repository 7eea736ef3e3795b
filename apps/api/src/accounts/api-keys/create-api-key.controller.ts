import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiProperty, ApiTags, PickType } from '@nestjs/swagger';
import { MAX_API_KEY_NAME_LENGTH } from '@rank/accounts/domain/account';
import { IssueApiKey } from '@rank/accounts/api-keys/issue-api-key';
import { AccountCaller, CurrentAccount } from '../../platform/auth/caller';
import { CLOCK, Clock } from '@rank/platform/tokens';
import { RequiredText } from '../../platform/http/validators';
import { ApiKeyView } from './api-key.view';

export class CreateApiKeyBody {
  @RequiredText(MAX_API_KEY_NAME_LENGTH, { example: 'reporting script' })
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
