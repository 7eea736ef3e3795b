import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Caller } from '@rank/accounts/caller';

export type { AccountCaller, Caller } from '@rank/accounts/caller';

export const CALLER = 'caller';

export const CurrentCaller = createParamDecorator((_: unknown, context: ExecutionContext): Caller => {
  const request = context.switchToHttp().getRequest<Record<string, unknown>>();
  return (request[CALLER] as Caller | undefined) ?? { kind: 'anonymous' };
});

/** The caller of a route that needs a key: the guard has already refused anonymous requests. */
export const CurrentAccount = createParamDecorator((_: unknown, context: ExecutionContext) => {
  const caller = context.switchToHttp().getRequest<Record<string, unknown>>()[CALLER] as Caller | undefined;
  if (!caller || caller.kind !== 'account') throw new Error('CurrentAccount used on a route that does not require a key');
  return caller;
});
