import { Body, Controller, Delete, Inject, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOkResponse, ApiProperty, ApiQuery, ApiTags } from '@nestjs/swagger';
import { invalid } from '@rank/domain/domain-error';
import { isObjectId } from '@rank/domain/object-id';
import { AccountRepository } from '@rank/accounts/account.repository';
import { AccountCaller, CurrentAccount } from '../../platform/auth/caller';
import { OBJECT_ID_PATTERN } from '../../platform/http/validators';
import { CLOCK, Clock } from '@rank/platform/tokens';

class RevokeApiKeyBody {
  @ApiProperty({
    required: false,
    pattern: OBJECT_ID_PATTERN,
    description: 'Key id (or send it as the query parameter id: one of the two is required, and two different ids are a 400)',
  })
  id?: string;
}
class SuccessResponse {
  @ApiProperty() success!: boolean;
}

@ApiTags('API keys')
@ApiBearerAuth()
@Controller('api/user/api-keys')
export class RevokeApiKeyController {
  constructor(
    private readonly accounts: AccountRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Soft revoke: the key stays in the account's history with `revokedAt`, and stops working at once. */
  @Delete()
  @ApiQuery({
    name: 'id',
    required: false,
    type: String,
    example: '6740a1b2c3d4e5f601234567',
    pattern: OBJECT_ID_PATTERN,
    description: 'Key id (or send it in the body)',
  })
  @ApiBody({ type: RevokeApiKeyBody, required: false })
  @ApiOkResponse({ type: SuccessResponse })
  async revoke(@CurrentAccount() caller: AccountCaller, @Query('id') queryId: unknown, @Body() body: unknown): Promise<SuccessResponse> {
    const bodyId = body && typeof body === 'object' ? (body as { id?: unknown }).id : undefined;
    // Two different ids would revoke one of them by a rule the caller cannot see: neither is guessed.
    // (An empty `?id=` names nothing; a repeated one is the body's to stand in for, as before.)
    if (bodyId !== undefined && typeof queryId === 'string' && queryId !== '' && bodyId !== queryId)
      throw invalid('id is sent in both the body and the query, with different values: send it once');
    const id = bodyId ?? queryId;
    if (id === undefined || id === '') throw invalid('id is required (in the body or the query)');
    if (!isObjectId(id)) throw invalid('id must be a 24-character hex id');
    await this.accounts.handle(caller.accountId, { type: 'RevokeApiKey', keyId: id }, this.clock.now());
    return { success: true };
  }
}
