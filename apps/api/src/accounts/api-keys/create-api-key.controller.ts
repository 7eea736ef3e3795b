import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiProperty, ApiTags, PickType } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { MAX_API_KEY_NAME_LENGTH } from '@rank/accounts/domain/account';
import { newObjectId } from '@rank/domain/object-id';
import { AccountRepository } from '@rank/accounts/account.repository';
import { issueApiKey } from '@rank/accounts/api-keys/api-key-secret';
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
  constructor(private readonly accounts: AccountRepository, @Inject(CLOCK) private readonly clock: Clock) {}

  @Post()
  @HttpCode(201)
  @ApiCreatedResponse({ type: CreateApiKeyResponse })
  async create(@CurrentAccount() caller: AccountCaller, @Body() body: CreateApiKeyBody): Promise<CreateApiKeyResponse> {
    const now = this.clock.now();
    const issued = issueApiKey(caller.accountId);
    const keyId = newObjectId(now);
    const { events } = await this.accounts.handle(caller.accountId, { type: 'CreateApiKey', keyId, name: body.name, keyHash: issued.keyHash, keyPrefix: issued.keyPrefix }, now);
    const created = events.find((e) => e.type === 'ApiKeyCreated');
    if (!created || created.type !== 'ApiKeyCreated') throw new Error('creating a key must record ApiKeyCreated');
    return {
      success: true,
      key: issued.key,
      apiKey: { _id: keyId, name: body.name, keyPrefix: issued.keyPrefix, createdAt: created.data.createdAt },
    };
  }
}
