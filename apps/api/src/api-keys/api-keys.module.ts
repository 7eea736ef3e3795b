import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { CreateApiKeyRoute } from './create-api-key/create-api-key.route';
import { KeyUsageStore } from './key-usage.store';
import { ListApiKeysRoute } from './list-api-keys/list-api-keys.route';
import { RevokeApiKeyRoute } from './revoke-api-key/revoke-api-key.route';

@Module({
  imports: [AccountsModule],
  controllers: [ListApiKeysRoute, CreateApiKeyRoute, RevokeApiKeyRoute],
  providers: [KeyUsageStore],
})
export class ApiKeysModule {}
