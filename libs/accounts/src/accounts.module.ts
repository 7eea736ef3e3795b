import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { AccountRepository } from './account.repository';
import { KeyUsageTracker } from './api-keys/key-usage.tracker';
import { ChangeAccountHandler } from './change-account/change-account.handler';
import { GetAccountHandler } from './get-account/get-account.query';
import { OpenAccountHandler } from './open-account/open-account.handler';

/** Accounts: the operator's use cases, and the repository that authentication reads. */
@Module({
  imports: [CqrsModule],
  providers: [AccountRepository, KeyUsageTracker, OpenAccountHandler, ChangeAccountHandler, GetAccountHandler],
  exports: [AccountRepository, KeyUsageTracker, CqrsModule],
})
export class AccountsModule {}
