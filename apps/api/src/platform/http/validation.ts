import { BadRequestException, ValidationError, ValidationPipe } from '@nestjs/common';

/**
 * Checks that say what kind of value a field must be. When one of them fails, the field's other
 * checks (its range, its length) say nothing more to the caller: `keywords must be an array`, not
 * also `keywords must contain no more than 10000 elements`.
 */
const KIND_CHECKS = new Set(['isDefined', 'isNotEmpty', 'isArray', 'isString', 'isInt', 'isNumber', 'isBoolean', 'isObject']);

/** A field's failed checks, each sentence once, the kind first when the value is of the wrong kind. */
function ownSentences(constraints: Record<string, string>): string[] {
  const failed = Object.entries(constraints);
  const kind = failed.filter(([check]) => KIND_CHECKS.has(check));
  return [...new Set((kind.length > 0 ? kind : failed).map(([, text]) => text))];
}

/** Flattens class-validator's tree into sentences that name the field (`keywords.0 must be a string`). */
function describe(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const own = ownSentences(error.constraints ?? {}).map((text) => text.replace(new RegExp(`^${error.property}\\b`), path));
    return [...own, ...describe(error.children ?? [], path)];
  });
}

/**
 * Validation for every route: unknown properties are dropped (clients send extra fields), strings
 * are not coerced into numbers behind the caller's back, and every failure is a 400 naming the fields.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    exceptionFactory: (errors) => new BadRequestException({ message: describe(errors).join('; ') || 'Invalid request' }),
  });
}
