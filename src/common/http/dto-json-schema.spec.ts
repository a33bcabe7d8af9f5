import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { Type } from 'class-transformer';
import { ApiProperty, PartialType } from '@nestjs/swagger';
import { BriefSchema, dtoJsonSchema } from './dto-json-schema';
import { Omittable } from './optional.decorator';

class SampleDto {
  @IsString()
  @MaxLength(20)
  @Matches(/^[a-z]+$/)
  name: string;

  @ApiProperty({ description: 'How many, 1..10' })
  @Omittable()
  @IsInt()
  @Min(1)
  @Max(10)
  count?: number;

  @IsOptional()
  @IsIn(['a', 'b'])
  choice?: 'a' | 'b' | null;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(3)
  @IsUUID('all', { each: true })
  ids?: string[] | null;

  @Omittable()
  @IsBoolean()
  flag?: boolean;
}

class ItemDto {
  @IsString()
  label: string;

  @Omittable()
  @IsInt()
  @Max(5)
  weight?: number;
}

class NestedDto {
  @ApiProperty({ type: [ItemDto] })
  @Omittable()
  @IsArray()
  @ArrayMaxSize(2)
  @ValidateNested({ each: true })
  @Type(() => ItemDto)
  items?: ItemDto[];
}

class PartialSampleDto extends PartialType(SampleDto, { skipNullProperties: false }) {}

describe('dtoJsonSchema', () => {
  it('states each property as the DTO validates it: type, bounds, pattern, enum, items; null as an anyOf branch', () => {
    expect(dtoJsonSchema(SampleDto)).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', maxLength: 20, pattern: '^[a-z]+$' },
        count: { type: 'integer', minimum: 1, maximum: 10, description: 'How many, 1..10' },
        choice: { enum: ['a', 'b', null] },
        ids: {
          anyOf: [{ type: 'array', maxItems: 3, items: { type: 'string', format: 'uuid' } }, { type: 'null' }],
        },
        flag: { type: 'boolean' },
      },
      required: ['name'],
      additionalProperties: false,
    });
  });

  it('states a list of nested objects with the schema of their class', () => {
    expect(dtoJsonSchema(NestedDto).properties.items).toEqual({
      type: 'array',
      maxItems: 2,
      items: {
        type: 'object',
        properties: { label: { type: 'string' }, weight: { type: 'integer', maximum: 5 } },
        required: ['label'],
        additionalProperties: false,
      },
    });
  });

  it('makes every property of a partial DTO optional, keeping its bounds and whether it admits null', () => {
    const schema = dtoJsonSchema(PartialSampleDto);
    expect(schema.required).toEqual([]);
    expect(schema.properties.count).toMatchObject({ type: 'integer', minimum: 1, maximum: 10 });
    expect(schema.properties.name).toMatchObject({ type: 'string', maxLength: 20 });
    expect(schema.properties.choice).toEqual({ enum: ['a', 'b', null] });
  });

  it("keeps a nullable property's description beside its anyOf, on one line", () => {
    class DocumentedDto {
      @ApiProperty({ description: 'Requests per hour,\n  null for none.' })
      @IsOptional()
      @IsInt()
      @Min(1)
      perHour?: number | null;
    }
    expect(dtoJsonSchema(DocumentedDto).properties.perHour).toEqual({
      anyOf: [{ type: 'integer', minimum: 1 }, { type: 'null' }],
      description: 'Requests per hour, null for none.',
    });
  });

  it('describes nested DTOs (an object, or an array of them) with their own rules', () => {
    class PartDto {
      @IsInt()
      @Min(1)
      weight: number;
    }
    class WholeDto {
      @ApiProperty({ type: () => [PartDto] })
      @IsArray()
      @ArrayMaxSize(3)
      @ValidateNested({ each: true })
      @Type(() => PartDto)
      parts: PartDto[];
    }
    class OuterDto {
      @ApiProperty({ type: () => WholeDto })
      @IsOptional()
      @ValidateNested()
      @Type(() => WholeDto)
      whole?: WholeDto | null;
    }
    const part = {
      type: 'object',
      properties: { weight: { type: 'integer', minimum: 1 } },
      required: ['weight'],
      additionalProperties: false,
    };
    expect(dtoJsonSchema(OuterDto).properties.whole).toEqual({
      anyOf: [
        {
          type: 'object',
          properties: { parts: { type: 'array', maxItems: 3, items: part } },
          required: ['parts'],
          additionalProperties: false,
        },
        { type: 'null' },
      ],
    });
  });

  it('gives a nested DTO marked brief as an object with its description, in a list or alone', () => {
    @BriefSchema('A child: the same shape as its parent.')
    class ChildDto {
      @IsInt()
      weight: number;
    }
    class ParentDto {
      @ApiProperty({ type: () => [ChildDto] })
      @IsArray()
      @ValidateNested({ each: true })
      @Type(() => ChildDto)
      children: ChildDto[];

      @ApiProperty({ type: () => ChildDto })
      @ValidateNested()
      @Type(() => ChildDto)
      only: ChildDto;
    }
    const brief = { type: 'object', description: 'A child: the same shape as its parent.' };
    const schema = dtoJsonSchema(ParentDto);
    expect(schema.properties.children).toEqual({ type: 'array', items: brief });
    expect(schema.properties.only).toEqual(brief);
  });
});
