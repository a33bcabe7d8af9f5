import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { ValidateBy } from 'class-validator';
import { MAX_TAG_VALUE_LENGTH, MAX_TAGS, tagsObjectProblems } from './tags';

/**
 * An object of tags (`{"team": "search"}`): at most 10, each key a lowercase letter followed by up to 39 lowercase
 * letters, digits, `_`, `.` or `-`, each value a string of 1 to 128 characters. A refusal names the offending tag.
 */
export const TagsProperty = (description: string) =>
  applyDecorators(
    ApiProperty({
      // OpenAPI 3.0 has no propertyNames: the key rule is in the description.
      description: `${description}. Keys: a lowercase letter followed by up to 39 lowercase letters, digits, _, . or -`,
      type: 'object',
      maxProperties: MAX_TAGS,
      additionalProperties: { type: 'string', minLength: 1, maxLength: MAX_TAG_VALUE_LENGTH },
    }),
    ValidateBy({
      name: 'isTags',
      validator: {
        validate: (value: unknown, args) => tagsObjectProblems(value, args?.property ?? 'tags').length === 0,
        defaultMessage: (args) => tagsObjectProblems(args?.value, args?.property ?? 'tags').join('; '),
      },
    }),
  );
