import { Module } from '@nestjs/common';
import { AccountsModule } from '@rank/accounts/accounts.module';
import { AccountsAdminController } from './admin/accounts-admin.controller';
import { AdminTokenGuard } from './admin/admin-token.guard';

/** The operator API under /admin. */
@Module({
  imports: [AccountsModule],
  controllers: [AccountsAdminController],
  providers: [AdminTokenGuard],
})
export class AccountsAdminModule {}
