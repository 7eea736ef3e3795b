import { Module } from '@nestjs/common';
import { AccountsModule } from '@rank/accounts/accounts.module';
import { CreateApiKeyRoute } from './create-api-key.controller';
import { KeyUsageStore } from '@rank/accounts/api-keys/key-usage.store';
import { ListApiKeysRoute } from './list-api-keys.controller';
import { RevokeApiKeyRoute } from './revoke-api-key.controller';

@Module({
  imports: [AccountsModule],
  controllers: [ListApiKeysRoute, CreateApiKeyRoute, RevokeApiKeyRoute],
  providers: [KeyUsageStore],
})
export class ApiKeysModule {}
