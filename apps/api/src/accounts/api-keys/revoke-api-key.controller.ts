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
    const sent = (value: unknown) => (value === undefined || value === null || value === '' ? undefined : value);
    const bodyId = sent(body && typeof body === 'object' ? (body as { id?: unknown }).id : undefined);
    // A repeated ?id= is one id only when every copy says the same.
    const queryIds = Array.isArray(queryId) ? [...new Set(queryId.map(sent).filter((v) => v !== undefined))] : [sent(queryId)];
    if (queryIds.length > 1) throw invalid('id must be a single value: the query names several');
    const fromQuery = queryIds[0];
    // Two different ids would revoke one of them by a rule the caller cannot see: neither is guessed.
    if (bodyId !== undefined && fromQuery !== undefined && bodyId !== fromQuery)
      throw invalid('id is sent in both the body and the query, with different values: send it once');
    const id = bodyId ?? fromQuery;
    if (id === undefined) throw invalid('id is required (in the body or the query)');
    if (!isObjectId(id)) throw invalid('id must be a 24-character hex id');
    await this.accounts.handle(caller.accountId, { type: 'RevokeApiKey', keyId: id }, this.clock.now());
    return { success: true };
  }
}
