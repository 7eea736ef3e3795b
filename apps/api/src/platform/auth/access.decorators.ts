import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { PUBLIC_EXTENSION, PUBLIC_WHEN_SHARED_EXTENSION } from '../api-document/refine-document';

/**
 * How a route is reached. The default, with no decorator, is: an API key of an account on a paid plan
 * that is not blocked.
 */
export const ACCESS = 'access';
export type Access =
  /** No key at all (health, the OpenAPI document). */
  | 'public'
  /** A key if one is sent; without one the handler decides (reads of shared projects). */
  | 'public-when-shared'
  /** The operator API: ADMIN_TOKEN, never an account key. */
  | 'admin';

export const Public = () => applyDecorators(SetMetadata(ACCESS, 'public' satisfies Access), ApiExtension(PUBLIC_EXTENSION, true));
/** Also marks the operation in the OpenAPI document, whose security then allows no key. */
export const PublicWhenShared = () =>
  applyDecorators(SetMetadata(ACCESS, 'public-when-shared' satisfies Access), ApiExtension(PUBLIC_WHEN_SHARED_EXTENSION, true));
export const AdminOnly = () => SetMetadata(ACCESS, 'admin' satisfies Access);

/** A write that a suspended account may not make (the spec's list in Authentication, point 5). */
export const REFUSED_WHEN_SUSPENDED = 'refusedWhenSuspended';
export const RefusedWhenSuspended = () => SetMetadata(REFUSED_WHEN_SUSPENDED, true);
