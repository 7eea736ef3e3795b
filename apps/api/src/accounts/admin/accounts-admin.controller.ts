import { Body, Controller, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { DEFAULT_PLAN_ID } from '@rank/accounts/domain/plans';
import { invalid } from '@rank/domain/domain-error';
import { AdminOnly } from '../../platform/auth/access.decorators';
import { ChangeAccount } from '@rank/accounts/change-account/change-account';
import { ChangeAccountCommand } from '@rank/accounts/change-account/change-account.command';
import { AccountViewLoader } from '@rank/accounts/get-account/account-view.loader';
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
  ) {}

  @Post()
  @HttpCode(201)
  async open(@Body() body: unknown) {
    const opened = await this.openAccount.open(new OpenAccountCommand(objectBody(body), DEFAULT_PLAN_ID));
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
}
