import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { OperatorToken } from './operator-token';

/** Lets an /admin route run only with the operator token (OperatorToken says how it is checked). */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  constructor(private readonly operatorToken: OperatorToken) {}

  canActivate(context: ExecutionContext): boolean {
    this.operatorToken.check(context.switchToHttp().getRequest<FastifyRequest>());
    return true;
  }
}
