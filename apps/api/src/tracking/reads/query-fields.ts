import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength, ValidateBy } from 'class-validator';
import { isObjectId } from '@rank/domain/object-id';
import { DATE_RANGE_NOTE, IsCalendarDate, OBJECT_ID_PATTERN } from '../../platform/http/validators';

/**
 * Query-string fields shared by the ranking reads. Each field fails with one sentence that names it
 * (the global validation pipe joins them), so a caller sees "projectId is required" rather than three
 * overlapping complaints about the same missing value.
 */

/** A required field: "x is required" when absent or empty, "x must be <what>" when `test` refuses it. */
export const RequiredQuery = (test: (value: unknown) => boolean, what: string) =>
  ValidateBy({
    name: 'requiredQuery',
    validator: {
      validate: test,
      defaultMessage: (args) =>
        args?.value === undefined || args.value === '' ? `${args?.property} is required` : `${args?.property} must be ${what}`,
    },
  });

/** A required 24-character hex id. */
export const RequiredObjectIdQuery = (description?: string) =>
  applyDecorators(
    ApiProperty({ example: '6740a1b2c3d4e5f601234567', pattern: OBJECT_ID_PATTERN, description }),
    RequiredQuery(isObjectId, 'a 24-character hex id'),
  );

/** An optional `YYYY-MM-DD` that must name a real calendar day (UTC). */
export const OptionalCalendarDateQuery = (description: string) =>
  applyDecorators(
    ApiPropertyOptional({
      example: '2026-03-01',
      format: 'date',
      description: `${description}; ${DATE_RANGE_NOTE}, startDate not after endDate`,
    }),
    IsOptional(),
    IsCalendarDate(),
  );

/** An optional value from a closed list; the 400 lists the allowed values. */
export const OptionalEnumQuery = <T extends string>(values: readonly T[], defaultValue?: T, description?: string) =>
  applyDecorators(
    ApiPropertyOptional({ enum: values, default: defaultValue, description }),
    IsOptional(),
    IsIn(values, { message: `$property must be one of ${values.join(', ')}` }),
  );

/** An optional free-text filter of bounded length. */
export const OptionalTextQuery = (maxLength: number, description: string) =>
  applyDecorators(
    ApiPropertyOptional({ maxLength, description }),
    IsOptional(),
    IsString({ message: '$property must be a single text value' }),
    MaxLength(maxLength),
  );
