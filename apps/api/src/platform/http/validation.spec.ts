import { BadRequestException } from '@nestjs/common';
import { ArrayMaxSize, IsArray, IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { createValidationPipe } from './validation';

const RANGE = 'limit must be a whole number from 1 to 100';

class Body {
  @IsArray()
  @ArrayMaxSize(3)
  items!: string[];

  @IsInt({ message: RANGE })
  @Min(1, { message: RANGE })
  @Max(100, { message: RANGE })
  limit!: number;

  @IsString()
  @MaxLength(5)
  name!: string;
}

async function messageFor(body: unknown): Promise<string> {
  try {
    await createValidationPipe().transform(body, { type: 'body', metatype: Body });
  } catch (error) {
    expect(error).toBeInstanceOf(BadRequestException);
    return ((error as BadRequestException).getResponse() as { message: string }).message;
  }
  throw new Error('the body was accepted');
}

describe('the validation pipe', () => {
  it('says each failed sentence of a field once, and only what kind it must be when it is of the wrong kind', async () => {
    // Given a list that is not a list, a limit given as text, and a name that is not text
    // then each field gets one sentence: not also the list's size, nor the range three times
    expect(await messageFor({ items: 'abc', limit: '5', name: 42 })).toBe(`items must be an array; ${RANGE}; name must be a string`);
  });

  it('keeps every other check of a field of the right kind', async () => {
    expect(await messageFor({ items: ['a', 'b', 'c', 'd'], limit: 0, name: 'too long' })).toBe(
      `items must contain no more than 3 elements; ${RANGE}; name must be shorter than or equal to 5 characters`,
    );
  });
});
