import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { AccountRepository } from './account.repository';
import { AccountsAdminController } from '../../../apps/api/src/accounts/admin/accounts-admin.controller';
import { AdminTokenGuard } from '../../../apps/api/src/accounts/admin/admin-token.guard';
import { ChangeAccountHandler } from './change-account/change-account.handler';
import { GetAccountHandler } from './get-account/get-account.query';
import { OpenAccountHandler } from './open-account/open-account.handler';

/** Accounts: the operator's use cases, and the repository that authentication reads. */
@Module({
  imports: [CqrsModule],
  controllers: [AccountsAdminController],
  providers: [AccountRepository, AdminTokenGuard, OpenAccountHandler, ChangeAccountHandler, GetAccountHandler],
  exports: [AccountRepository],
})
export class AccountsModule {}
