import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { AccountRepository } from '@rank/accounts/account.repository';
import { listActiveApiKeys } from '@rank/accounts/api-keys/api-key-views';
import { IssueApiKey } from '@rank/accounts/api-keys/issue-api-key';
import { ACCOUNT_EVENT_TYPES, AccountEvent } from '@rank/accounts/domain/account.events';
import { AccountListQuery, parseAccountListQuery } from '@rank/accounts/list-accounts/account-list-query';
import { parseEvent } from '@rank/domain/domain-event';
import { isObjectId } from '@rank/domain/object-id';
import type { EventStore } from '@rank/event-store/event-store.port';
import { backupEventStore } from '@rank/event-store/sqlite/backup';
import { DomainError } from '@rank/domain/domain-error';
import { AccountsModule } from '@rank/accounts/accounts.module';
import { ChangeAccount } from '@rank/accounts/change-account/change-account';
import { ChangeAccountCommand } from '@rank/accounts/change-account/change-account.command';
import { AccountViewLoader } from '@rank/accounts/get-account/account-view.loader';
import { OpenAccount } from '@rank/accounts/open-account/open-account';
import { OpenAccountCommand } from '@rank/accounts/open-account/open-account.command';
import { loadConfig } from '@rank/platform/config/app-config';
import { loadPlans } from '@rank/platform/plans/load-plans';
import { PlatformModule } from '@rank/platform/platform.module';
import { EMBEDDED_EVENT_STORE_FILE, openEventStore } from '@rank/platform/stores/open-stores';
import { systemClock } from '@rank/platform/tokens';
import { findIllFormedText } from '@rank/domain/well-formed-text';

const USAGE = `Operator commands (the same rules as the /admin API):
  npm run admin -- create-account [--name NAME] [--plan PLAN] [--trial] [--balance N]
  npm run admin -- get-account ID
  npm run admin -- update-account ID [--plan PLAN] [--trial true|false] [--status active|suspended|blocked] [--balance N]
  npm run admin -- list-accounts [--status active|suspended|blocked] [--plan PLAN] [--page N] [--limit N]
  npm run admin -- issue-key ID [--name NAME]        a new API key for the account, shown once
  npm run admin -- list-keys ID                      the account's active keys
  npm run admin -- revoke-key ID KEY_ID
  npm run admin -- plans
  npm run admin -- backup FILE                       a consistent copy of the embedded event store, taken
                                                     while the service runs (never over an existing file)
Options: --init  create the embedded event store if DATA_DIR holds none (otherwise refused, so a
                 mistyped DATA_DIR does not silently start an empty store)
         --help  this text
It uses the same configuration (DATA_DIR, EVENTSTORE_CONNECTION_STRING, PLANS_FILE) as the service,
and may run while the service runs: it touches only the event store (list-accounts reads the
whole log; on a large installation the operator API's GET /admin/accounts is faster).`;

/** The arguments each command takes after its name; more is a mistake, refused before anything is written. */
const ARGUMENTS: Readonly<Record<string, readonly string[]>> = {
  'create-account': [],
  'get-account': ['ID'],
  'update-account': ['ID'],
  'list-accounts': [],
  'issue-key': ['ID'],
  'list-keys': ['ID'],
  'revoke-key': ['ID', 'KEY_ID'],
  plans: [],
  backup: ['FILE'],
};

/**
 * The operator's command-line tool. It runs the accounts module's own use cases against the
 * event store only: the embedded ClickHouse allows one process per data path, and the server has it.
 */
async function main(rawArgv: string[]): Promise<number> {
  // `--trial` alone (last, or before another option) means `--trial true`; a word after it is its
  // value, checked below, so that `--trial False` is refused rather than read as `--trial true`.
  const argv = rawArgv.flatMap((arg, i) =>
    arg === '--trial' && (rawArgv[i + 1] === undefined || rawArgv[i + 1]!.startsWith('--')) ? [arg, 'true'] : [arg],
  );
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      plan: { type: 'string' },
      trial: { type: 'string' },
      status: { type: 'string' },
      balance: { type: 'string' },
      page: { type: 'string' },
      limit: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      init: { type: 'boolean' },
    },
  });
  const [command, id, keyId] = positionals;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!command) {
    console.error(USAGE);
    return 2;
  }
  // The operator API's rule for every string it takes (its pipe), for the same names and keys here.
  const illFormed =
    Object.entries(values)
      .map(([option, value]) => (typeof value === 'string' ? findIllFormedText(value, `--${option}`) : null))
      .find((problem) => problem !== null) ??
    positionals.map((argument, i) => findIllFormedText(argument, `argument ${i + 1}`)).find((problem) => problem !== null);
  if (illFormed) {
    console.error(`Error: ${illFormed}`);
    return 2;
  }
  const takes = ARGUMENTS[command];
  if (takes !== undefined && positionals.length - 1 > takes.length) {
    console.error(
      `Error: ${command} takes ${takes.length === 0 ? 'no arguments' : takes.join(' ')}, not "${positionals.slice(1 + takes.length).join(' ')}"`,
    );
    return 2;
  }
  const config = loadConfig();
  const plans = loadPlans(config.plansFile);
  if (command === 'plans') {
    console.log(
      JSON.stringify(
        plans.ids().map((planId) => plans.find(planId)),
        null,
        2,
      ),
    );
    return 0;
  }

  const embeddedStore = join(config.dataDir, EMBEDDED_EVENT_STORE_FILE);
  if (!config.eventStoreConnectionString && !values.init && !existsSync(embeddedStore)) {
    console.error(`Error: no event store at ${embeddedStore}. Check DATA_DIR, or pass --init to create one there.`);
    return 1;
  }
  if (command === 'backup') {
    if (config.eventStoreConnectionString) {
      console.error('Error: backup copies the embedded event store; back EventStoreDB up with its own tools.');
      return 1;
    }
    if (!id) {
      console.error('Error: backup needs the file to write: npm run admin -- backup FILE');
      return 2;
    }
    print(await backupEventStore(embeddedStore, resolve(id)));
    return 0;
  }
  const eventStore = await openEventStore(config);

  @Module({ imports: [PlatformModule.forRoot({ config, stores: { eventStore }, plans, clock: systemClock }), AccountsModule] })
  class CliModule {}

  const app = await NestFactory.createApplicationContext(CliModule, { logger: ['error'] });
  try {
    // Digits only, as the operator API takes a JSON number: Number() would read "" as 0 and "0x10" as 16.
    const balance = values.balance === undefined ? undefined : /^\d+$/.test(values.balance) ? Number(values.balance) : values.balance;
    if (values.trial !== undefined && !['true', 'false'].includes(values.trial)) throw new Error('--trial takes true or false');
    const trial = values.trial === undefined ? undefined : values.trial === 'true';
    switch (command) {
      case 'create-account':
        print(await app.get(OpenAccount).open(new OpenAccountCommand({ name: values.name, plan: values.plan, trial, balance })));
        return 0;
      case 'get-account':
        print({ account: await app.get(AccountViewLoader).load(id ?? '') });
        return 0;
      case 'update-account':
        print({
          account: await app
            .get(ChangeAccount)
            .change(new ChangeAccountCommand(id ?? '', { plan: values.plan, trial, status: values.status, balance })),
        });
        return 0;
      case 'list-accounts':
        print(await listAccountsFromLog(eventStore, app.get(AccountViewLoader), parseAccountListQuery(values)));
        return 0;
      case 'issue-key':
        await app.get(AccountViewLoader).load(id ?? '');
        print(await app.get(IssueApiKey).issue(id ?? '', values.name ?? 'issued by operator', new Date()));
        return 0;
      case 'list-keys': {
        await app.get(AccountViewLoader).load(id ?? '');
        const state = await app.get(AccountRepository).load(id ?? '');
        // lastUsedAt lives in ClickHouse, which the CLI does not open; the operator API shows it.
        print({ apiKeys: state.kind === 'open' ? listActiveApiKeys(state, () => undefined) : [] });
        return 0;
      }
      case 'revoke-key':
        await app.get(AccountViewLoader).load(id ?? '');
        if (!isObjectId(keyId)) throw new Error('revoke-key takes the account id and the key id (24-character hex)');
        await app.get(AccountRepository).handle(id ?? '', { type: 'RevokeApiKey', keyId }, new Date());
        print({ revoked: keyId });
        return 0;
      default:
        console.error(`Unknown command "${command}".\n\n${USAGE}`);
        return 2;
    }
  } finally {
    await app.close();
    await eventStore.close();
  }
}

/**
 * The accounts of the log, filtered and paged like GET /admin/accounts: the CLI does not open
 * ClickHouse, so it finds the accounts by reading the whole log, and folds each from its stream.
 */
async function listAccountsFromLog(store: EventStore, views: AccountViewLoader, query: AccountListQuery) {
  const ids: string[] = [];
  for (let after: number | undefined; ;) {
    const page = await store.readAll({ afterPosition: after, maxCount: 5_000 });
    if (page.length === 0) break;
    for (const event of page) {
      const opened = parseEvent<AccountEvent>(event, ACCOUNT_EVENT_TYPES);
      if (opened?.type === 'AccountOpened') ids.push(opened.data.accountId);
    }
    after = page[page.length - 1]!.position;
  }
  const all = await Promise.all(ids.map((accountId) => views.load(accountId)));
  const matching = all.filter(
    (a) => (query.status === undefined || a.status === query.status) && (query.plan === undefined || a.plan === query.plan),
  );
  const start = (query.page - 1) * query.limit;
  return { accounts: matching.slice(start, start + query.limit), page: query.page, limit: query.limit, total: matching.length };
}

function print(value: unknown): void {
  console.log(JSON.stringify(value, null, 2));
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof DomainError || error instanceof Error ? `Error: ${error.message}` : error);
    process.exit(1);
  },
);
