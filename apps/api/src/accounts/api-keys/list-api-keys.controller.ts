import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { listActiveApiKeys } from '@rank/accounts/api-keys/api-key-views';
import { AccountCaller, CurrentAccount } from '../../platform/auth/caller';
import { KeyUsageTracker } from '@rank/accounts/api-keys/key-usage.tracker';
import { ApiKeyView } from './api-key.view';
import { KeyUsageStore } from '@rank/accounts/api-keys/key-usage.store';

class ListApiKeysResponse {
  @ApiProperty() success!: boolean;
  @ApiProperty({ type: [ApiKeyView] }) apiKeys!: ApiKeyView[];
}

@ApiTags('API keys')
@ApiBearerAuth()
@Controller('api/user/api-keys')
export class ListApiKeysController {
  constructor(
    private readonly usageStore: KeyUsageStore,
    private readonly tracker: KeyUsageTracker,
  ) {}

  /** Active keys only: revoked keys are not listed, and secrets never are. */
  @Get()
  @ApiOkResponse({ type: ListApiKeysResponse })
  async list(@CurrentAccount() caller: AccountCaller): Promise<ListApiKeysResponse> {
    await this.usageStore.refresh(caller.accountId);
    return {
      success: true,
      apiKeys: listActiveApiKeys(caller.account, (keyId) => this.tracker.lastUsedAt(keyId)),
    };
  }
}
