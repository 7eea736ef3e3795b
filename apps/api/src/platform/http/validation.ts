import { BadRequestException, ValidationError, ValidationPipe } from '@nestjs/common';

/** Flattens class-validator's tree into sentences that name the field (`keywords.0 must be a string`). */
function describe(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((text) => text.replace(new RegExp(`^${error.property}\\b`), path));
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
