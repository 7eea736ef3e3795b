import { Module } from '@nestjs/common';
import { AccountsModule } from '@rank/accounts/accounts.module';
import { CreateApiKeyController } from './create-api-key.controller';
import { KeyUsageStore } from '@rank/accounts/api-keys/key-usage.store';
import { ListApiKeysController } from './list-api-keys.controller';
import { RevokeApiKeyController } from './revoke-api-key.controller';

@Module({
  imports: [AccountsModule],
  controllers: [ListApiKeysController, CreateApiKeyController, RevokeApiKeyController],
  providers: [KeyUsageStore],
  // The operator API lists an account's keys with when they were last used, like the account does.
  exports: [KeyUsageStore],
})
export class ApiKeysModule {}
