import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { AccountCaller, Caller } from '@rank/accounts/caller';

export type { AccountCaller, Caller } from '@rank/accounts/caller';

export const CALLER = 'caller';

export const CurrentCaller = createParamDecorator((_: unknown, context: ExecutionContext): Caller => {
  const request = context.switchToHttp().getRequest<Record<string, unknown>>();
  return (request[CALLER] as Caller | undefined) ?? { kind: 'anonymous' };
});

/** The caller of a route that needs a key: the guard has already refused anonymous requests. */
export const CurrentAccount = createParamDecorator((_: unknown, context: ExecutionContext) =>
  accountCallerOf(context.switchToHttp().getRequest()),
);

/**
 * What CurrentAccount gives, read from the request itself, for a hot route that takes the reply anyway
 * (`reply.request`): Nest runs the global pipes (WellFormedInputPipe, ValidationPipe) on every custom
 * parameter, each an async step that hands the caller back unchanged, on every request.
 */
export function accountCallerOf(request: object): AccountCaller {
  const caller = (request as Record<string, unknown>)[CALLER] as Caller | undefined;
  if (!caller || caller.kind !== 'account') throw new Error('CurrentAccount used on a route that does not require a key');
  return caller;
}
