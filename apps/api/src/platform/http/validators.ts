import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptions } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, Matches, MaxLength, ValidateBy, ValidationOptions } from 'class-validator';
import { isCalendarDate } from '@rank/domain/calendar-date';
import { trimText } from '@rank/domain/trimmed-text';

/** Two letters, any case (surrounding spaces are trimmed): the form of an ISO 3166-1 alpha-2 country or ISO 639-1 language code, as documented. */
export const TWO_LETTER_CODE_PATTERN = '^[A-Za-z]{2}$';

/** A 24-character lowercase hex id (clarifications: Identifiers), also written in the document so a client sees the form. */
export const OBJECT_ID_PATTERN = '^[0-9a-f]{24}$';

/** A 24-character lowercase hex id. */
export const IsObjectIdString = (options: ValidationOptions = {}) =>
  applyDecorators(
    IsString(options),
    Matches(new RegExp(OBJECT_ID_PATTERN), { ...options, message: '$property must be a 24-character hex id' }),
  );

/** A required id, documented. */
export const ObjectIdField = (description?: string) =>
  applyDecorators(ApiProperty({ example: '6740a1b2c3d4e5f601234567', pattern: OBJECT_ID_PATTERN, description }), IsObjectIdString());

/** A required string of bounded length, composed and trimmed (`trimText`), not empty once trimmed. */
export const RequiredText = (maxLength: number, api: ApiPropertyOptions = {}) =>
  applyDecorators(
    ApiProperty({ minLength: 1, maxLength, ...api }),
    Transform(({ value }) => (typeof value === 'string' ? trimText(value) : value)),
    IsString(),
    IsNotEmpty(),
    MaxLength(maxLength),
  );

/** The days a ClickHouse `Date` column holds: a day outside them would be stored as another day. */
export const FIRST_STORABLE_DAY = '1970-01-01';
export const LAST_STORABLE_DAY = '2149-06-06';

/** The range of days every date field takes, for the document. */
export const DATE_RANGE_NOTE = `a real calendar day from ${FIRST_STORABLE_DAY} to ${LAST_STORABLE_DAY}`;

/** `YYYY-MM-DD` naming a real calendar day (2026-02-30 is refused) that the read models can store. */
export const IsCalendarDate = (options: ValidationOptions = {}) =>
  ValidateBy(
    {
      name: 'isCalendarDate',
      validator: {
        validate: (value: unknown) => isCalendarDate(value) && value >= FIRST_STORABLE_DAY && value <= LAST_STORABLE_DAY,
        defaultMessage: () => `$property must be a real calendar date as YYYY-MM-DD, from ${FIRST_STORABLE_DAY} to ${LAST_STORABLE_DAY}`,
      },
    },
    options,
  );
