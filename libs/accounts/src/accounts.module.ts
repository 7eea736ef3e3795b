import { Module } from '@nestjs/common';
import { AccountRepository } from './account.repository';
import { IssueApiKey } from './api-keys/issue-api-key';
import { KeyUsageTracker } from './api-keys/key-usage.tracker';
import { ChangeAccount } from './change-account/change-account';
import { AccountViewLoader } from './get-account/account-view.loader';
import { OpenAccount } from './open-account/open-account';

/** Accounts: the operator's use cases, and the repository that authentication reads. */
@Module({
  providers: [AccountRepository, KeyUsageTracker, OpenAccount, ChangeAccount, AccountViewLoader, IssueApiKey],
  exports: [AccountRepository, KeyUsageTracker, OpenAccount, ChangeAccount, AccountViewLoader, IssueApiKey],
})
export class AccountsModule {}
