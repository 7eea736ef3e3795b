import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { parseArgs } from 'node:util';
import { DEFAULT_PLAN_ID } from '@rank/accounts/domain/plans';
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
import { openEventStore } from '@rank/platform/stores/open-stores';
import { systemClock } from '@rank/platform/tokens';

const USAGE = `Operator commands (the same rules as the /admin API):
  npm run admin -- create-account [--name NAME] [--plan PLAN] [--trial] [--balance N]
  npm run admin -- get-account ID
  npm run admin -- update-account ID [--plan PLAN] [--trial true|false] [--status active|suspended|blocked] [--balance N]
  npm run admin -- plans
It uses the same configuration (DATA_DIR, EVENTSTORE_CONNECTION_STRING, PLANS_FILE) as the service,
and may run while the service runs: it touches only the event store.`;

/**
 * The operator's command-line tool. It runs the accounts module's own use cases against the
 * event store only: the embedded ClickHouse allows one process per data path, and the server has it.
 */
async function main(rawArgv: string[]): Promise<number> {
  // `--trial` alone means `--trial true`; update-account also takes `--trial false`.
  const argv = rawArgv.flatMap((arg, i) => (arg === '--trial' && !['true', 'false'].includes(rawArgv[i + 1] ?? '') ? [arg, 'true'] : [arg]));
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' }, plan: { type: 'string' }, trial: { type: 'string' }, status: { type: 'string' },
      balance: { type: 'string' }, help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, id] = positionals;
  if (values.help || !command) {
    console.log(USAGE);
    return command ? 0 : 2;
  }
  const config = loadConfig();
  const plans = loadPlans(config.plansFile);
  if (command === 'plans') {
    console.log(JSON.stringify(plans.ids().map((planId) => plans.find(planId)), null, 2));
    return 0;
  }

  const eventStore = await openEventStore(config);

  @Module({ imports: [PlatformModule.forRoot({ config, stores: { eventStore }, plans, clock: systemClock }), AccountsModule] })
  class CliModule {}

  const app = await NestFactory.createApplicationContext(CliModule, { logger: ['error'] });
  try {
    const balance = values.balance === undefined ? undefined : Number(values.balance);
    if (values.trial !== undefined && !['true', 'false'].includes(values.trial)) throw new Error('--trial takes true or false');
    const trial = values.trial === undefined ? undefined : values.trial === 'true';
    switch (command) {
      case 'create-account':
        print(await app.get(OpenAccount).open(new OpenAccountCommand({ name: values.name, plan: values.plan, trial, balance }, DEFAULT_PLAN_ID)));
        return 0;
      case 'get-account':
        print({ account: await app.get(AccountViewLoader).load(id ?? '') });
        return 0;
      case 'update-account':
        print({ account: await app.get(ChangeAccount).change(new ChangeAccountCommand(id ?? '', { plan: values.plan, trial, status: values.status, balance })) });
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
