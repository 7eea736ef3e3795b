import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { invalid } from '@rank/domain/domain-error';
import { AdminOnly } from '../../platform/auth/access.decorators';
import { ChangeAccount } from '@rank/accounts/change-account/change-account';
import { ChangeAccountCommand } from '@rank/accounts/change-account/change-account.command';
import { AccountViewLoader } from '@rank/accounts/get-account/account-view.loader';
import { AccountRepository } from '@rank/accounts/account.repository';
import { listActiveApiKeys } from '@rank/accounts/api-keys/api-key-views';
import { IssueApiKey } from '@rank/accounts/api-keys/issue-api-key';
import { KeyUsageStore } from '@rank/accounts/api-keys/key-usage.store';
import { KeyUsageTracker } from '@rank/accounts/api-keys/key-usage.tracker';
import { parseAccountListQuery } from '@rank/accounts/list-accounts/account-list-query';
import { AccountListReader } from '@rank/accounts/list-accounts/account-list.reader';
import { isObjectId } from '@rank/domain/object-id';
import { CLOCK, Clock } from '@rank/platform/tokens';
import { OpenAccount } from '@rank/accounts/open-account/open-account';
import { OpenAccountCommand } from '@rank/accounts/open-account/open-account.command';
import { AdminTokenGuard } from './admin-token.guard';

/** The body as the fields it holds: none when absent; anything but a JSON object is a 400. */
function objectBody(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalid('The request body must be a JSON object');
  return body as Record<string, unknown>;
}

/**
 * The operator API (clarifications: Accounts, plans and the operator API). Not part of the public
 * OpenAPI document. Bodies are checked by the commands themselves, which the CLI shares.
 */
@ApiExcludeController()
@AdminOnly()
@UseGuards(AdminTokenGuard)
@Controller('admin/accounts')
export class AccountsAdminController {
  constructor(
    private readonly openAccount: OpenAccount,
    private readonly changeAccount: ChangeAccount,
    private readonly accountViews: AccountViewLoader,
    private readonly accountList: AccountListReader,
    private readonly accounts: AccountRepository,
    private readonly issueApiKey: IssueApiKey,
    private readonly keyUsage: KeyUsageTracker,
    private readonly keyUsageStore: KeyUsageStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Accounts oldest first, `?status=&plan=&page=&limit=` (limit 1–100, default 50). */
  @Get()
  async list(@Query() query: Record<string, unknown>) {
    return { success: true, ...(await this.accountList.list(parseAccountListQuery(query))) };
  }

  @Post()
  @HttpCode(201)
  async open(@Body() body: unknown) {
    const opened = await this.openAccount.open(new OpenAccountCommand(objectBody(body)));
    return { success: true, account: opened.account, apiKey: opened.apiKey };
  }

  @Get(':id')
  async get(@Param('id') id: string) {
    return { success: true, account: await this.accountViews.load(id) };
  }

  @Patch(':id')
  async change(@Param('id') id: string, @Body() body: unknown) {
    return { success: true, account: await this.changeAccount.change(new ChangeAccountCommand(id, objectBody(body))) };
  }

  /** A new key for a user who lost theirs (`{name?}`, default "issued by operator"); the secret is shown once. */
  @Post(':id/api-keys')
  @HttpCode(201)
  async issueKey(@Param('id') id: string, @Body() body: unknown) {
    await this.accountViews.load(id);
    const { name = 'issued by operator' } = objectBody(body);
    return { success: true, ...(await this.issueApiKey.issue(id, name, this.clock.now())) };
  }

  @Get(':id/api-keys')
  async listKeys(@Param('id') id: string) {
    await this.accountViews.load(id);
    await this.keyUsageStore.refresh(id);
    const state = await this.accounts.load(id);
    if (state.kind !== 'open') throw new Error('a loaded account must be open');
    return { success: true, apiKeys: listActiveApiKeys(state, (keyId) => this.keyUsage.lastUsedAt(keyId)) };
  }

  @Delete(':id/api-keys/:keyId')
  async revokeKey(@Param('id') id: string, @Param('keyId') keyId: string) {
    await this.accountViews.load(id);
    if (!isObjectId(keyId)) throw invalid('keyId must be a 24-character hex id');
    await this.accounts.handle(id, { type: 'RevokeApiKey', keyId }, this.clock.now());
    return { success: true };
  }
}
