import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, ValidateBy } from 'class-validator';
import { MAX_TAG_VALUE_LENGTH, TAG_KEY_PATTERN } from '../../../common/tags/tags';
import { Omittable } from '../../../common/http/optional.decorator';
import { tagFilterProblem, tagKeyFilterProblem } from '../tag-filter';
import { scoreFilterProblem } from '../score-filter';
import { SCORE_NAME_PATTERN } from '../../scores/score-config-rules';

/** A query value that may be repeated: one value is a list of one. */
const asList = ({ value }: { value: unknown }) => (typeof value === 'string' ? [value] : value);

const KEY = TAG_KEY_PATTERN.source.slice(1, -1);

/** `tag=key:value`, repeatable: a key repeated matches either value; different keys must all match. */
export const TagFilterQuery = () =>
  applyDecorators(
    ApiProperty({
      description:
        'Only executions tagged key:value. Repeatable: the same key repeated means either value, different keys must all match.',
      type: [String],
      required: false,
      pattern: `^${KEY}:.{1,${MAX_TAG_VALUE_LENGTH}}$`,
    }),
    Transform(asList),
    Omittable(),
    IsArray(),
    ArrayMaxSize(20),
    ValidateBy(
      {
        name: 'isTagFilter',
        validator: {
          validate: (value: unknown) => tagFilterProblem(value) === null,
          defaultMessage: () => `tag: ${tagFilterProblem(undefined)}`,
        },
      },
      { each: true },
    ),
  );

/** `hasTag=key`, repeatable: executions carrying the key, whatever its value. */
export const HasTagFilterQuery = () =>
  applyDecorators(
    ApiProperty({
      description: 'Only executions carrying this tag key, whatever its value. Repeatable: every key must be present.',
      type: [String],
      required: false,
      pattern: TAG_KEY_PATTERN.source,
    }),
    Transform(asList),
    Omittable(),
    IsArray(),
    ArrayMaxSize(20),
    ValidateBy(
      {
        name: 'isTagKey',
        validator: {
          validate: (value: unknown) => tagKeyFilterProblem(value) === null,
          defaultMessage: () => `hasTag: ${tagKeyFilterProblem(undefined)}`,
        },
      },
      { each: true },
    ),
  );

/** `score=name` or `score=name:value`, repeatable: the same name repeated means either value; different names must all match. */
export const ScoreFilterQuery = () =>
  applyDecorators(
    ApiProperty({
      description:
        'Only executions with this score (name), or with this value of it (name:value: true or false, a number, or a category). Repeatable: the same name repeated means either value, different names must all match.',
      type: [String],
      required: false,
      pattern: `^${SCORE_NAME_PATTERN.source.slice(1, -1)}(:.{1,64})?$`,
    }),
    Transform(asList),
    Omittable(),
    IsArray(),
    ArrayMaxSize(20),
    ValidateBy(
      {
        name: 'isScoreFilter',
        validator: {
          validate: (value: unknown) => scoreFilterProblem(value) === null,
          defaultMessage: () => `score: ${scoreFilterProblem(undefined)}`,
        },
      },
      { each: true },
    ),
  );
