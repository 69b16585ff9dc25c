import { plainToInstance } from 'class-transformer';
import { IsArray, IsEmail, IsIn, IsInt, IsNotEmpty, IsString, MaxLength, validateSync } from 'class-validator';
import { flattenValidationErrors } from './validation';

class Body {
  @IsString()
  @IsNotEmpty()
  @MaxLength(5)
  code: string;

  @IsString()
  @MaxLength(254)
  @IsEmail()
  email: string;

  @IsInt()
  count: number;

  @IsArray()
  @IsIn(['a', 'b'], { each: true })
  tags: string[];
}

function messages(input: object): Record<string, string[]> {
  const details = flattenValidationErrors(validateSync(plainToInstance(Body, input)));
  const byField: Record<string, string[]> = {};
  for (const { field, message } of details) (byField[field] ??= []).push(message);
  return byField;
}

const VALID = { code: 'C1', email: 'ada@example.com', count: 1, tags: ['a'] };

describe('flattenValidationErrors', () => {
  it('reports a missing field as missing, not by its length or format', () => {
    expect(messages({})).toEqual({
      code: ['code should not be empty'],
      email: ['email must be a string'],
      count: ['count must be an integer number'],
      tags: ['tags must be an array'],
    });
  });

  it('reports a wrong type before the rules that need the right one', () => {
    expect(messages({ ...VALID, code: 12345678, email: 42 })).toEqual({
      code: ['code must be a string'],
      email: ['email must be a string'],
    });
  });

  it('reports the one rule a present value breaks', () => {
    expect(messages({ ...VALID, code: 'toolong', email: 'not-an-email', tags: ['c'] })).toEqual({
      code: ['code must be shorter than or equal to 5 characters'],
      email: ['email must be an email'],
      tags: ['each value in tags must be one of the following values: a, b'],
    });
  });

  it('reports nothing for a valid body', () => {
    expect(messages(VALID)).toEqual({});
  });
});
