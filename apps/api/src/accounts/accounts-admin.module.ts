import { Module } from '@nestjs/common';
import { AccountsModule } from '@rank/accounts/accounts.module';
import { AccountListReader } from '@rank/accounts/list-accounts/account-list.reader';
import { AccountsAdminController } from './admin/accounts-admin.controller';
import { AdminTokenGuard } from './admin/admin-token.guard';
import { OperatorToken } from './admin/operator-token';
import { ApiKeysModule } from './api-keys/api-keys.module';

/** The operator API under /admin. */
@Module({
  imports: [AccountsModule, ApiKeysModule],
  controllers: [AccountsAdminController],
  providers: [AdminTokenGuard, OperatorToken, AccountListReader],
  exports: [OperatorToken],
})
export class AccountsAdminModule {}
