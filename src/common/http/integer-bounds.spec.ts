import type { ArgumentMetadata } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { CreateEndpointDto, ListEndpointsQuery, UpdateEndpointDto } from '../../modules/endpoints/dto/endpoint.dto';
import { CreateInputFieldDto, UpdateInputFieldDto } from '../../modules/endpoints/dto/field.dto';
import { CreateKeyDto, UpdateKeyDto } from '../../modules/keys/dto/create-key.dto';
import { ListKeysQuery } from '../../modules/keys/dto/list-keys.dto';
import { ListLogsQuery } from '../../modules/logs/dto/list-logs.dto';
import { CompareVersionsQuery, CreatePromptDto, UpdatePromptDto } from '../../modules/prompts/dto/prompt.dto';
import { TestRunDto } from '../../modules/execution/dto/test-run.dto';
import { ValidationError } from '../errors/app-error';
import { validateDto } from './validation.pipe';
import { MAX_INTEGER, PositiveIntegerParamPipe } from './integer-bounds';

const REQUEST_DTOS: (new () => object)[] = [
  CreateEndpointDto,
  UpdateEndpointDto,
  ListEndpointsQuery,
  CreateInputFieldDto,
  UpdateInputFieldDto,
  CreateKeyDto,
  UpdateKeyDto,
  ListKeysQuery,
  ListLogsQuery,
  CreatePromptDto,
  UpdatePromptDto,
  CompareVersionsQuery,
  TestRunDto,
];

describe('integer properties of request DTOs', () => {
  it.each(REQUEST_DTOS.map((dto) => [dto.name, dto] as const))(
    '%s: every integer property has a maximum of at most 2147483647',
    (_name, dto) => {
      const metadata = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
      const integers = new Set(metadata.filter((rule) => rule.name === 'isInt').map((rule) => rule.propertyName));
      expect(integers.size).toBeGreaterThan(0);
      for (const property of integers) {
        const maximum = metadata.find((rule) => rule.propertyName === property && rule.name === 'max')
          ?.constraints?.[0] as number | undefined;
        expect({ property, bounded: maximum !== undefined && maximum <= MAX_INTEGER }).toEqual({
          property,
          bounded: true,
        });
      }
    },
  );

  it('refuses a value past the bound with one message naming the property', () => {
    expect(() =>
      validateDto(CreateKeyDto, { name: 'k', type: 'endpoint', rateLimitPerDay: MAX_INTEGER }),
    ).not.toThrow();
    expect(() => validateDto(CreateKeyDto, { name: 'k', type: 'endpoint', rateLimitPerDay: 1e11 })).toThrow(
      `rateLimitPerDay must not be greater than ${MAX_INTEGER}`,
    );
  });
});

describe('PositiveIntegerParamPipe', () => {
  const pipe = new PositiveIntegerParamPipe();
  const metadata: ArgumentMetadata = { type: 'param', data: 'versionNumber' };
  const refusal = (value: string | number) => {
    try {
      pipe.transform(value, metadata);
    } catch (error) {
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).field).toBe('versionNumber');
      return (error as ValidationError).message;
    }
    throw new Error(`${value} was accepted`);
  };

  it('passes whole numbers from 1 to 2147483647, as text or already converted', () => {
    expect(pipe.transform('1', metadata)).toBe(1);
    expect(pipe.transform(String(MAX_INTEGER), metadata)).toBe(MAX_INTEGER);
    expect(pipe.transform(42, metadata)).toBe(42);
  });

  it('refuses the rest with a message naming the parameter', () => {
    expect(refusal('100000000000')).toBe(`versionNumber must not be greater than ${MAX_INTEGER}`);
    expect(refusal(1e23)).toBe(`versionNumber must not be greater than ${MAX_INTEGER}`);
    expect(refusal('0')).toBe('versionNumber must not be less than 1');
    expect(refusal('abc')).toBe('versionNumber must be an integer');
    expect(refusal(Number.NaN)).toBe('versionNumber must be an integer');
    expect(refusal(1.5)).toBe('versionNumber must be an integer');
  });
});
