import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsObject,
  IsUUID,
  ValidateNested,
} from 'class-validator';
import { ApiAnyJson } from '../../../common/http/api-schema.decorators';
import { Omittable } from '../../../common/http/optional.decorator';
import { PageNumber, PageSize } from '../../../common/http/paging';
import { TagsProperty } from '../../../common/tags/tags.decorator';
import type { Tags } from '../../../common/tags/tags';
import { ITEM_PAGE_SIZE, MAX_ITEMS_PER_CALL } from '../dataset-rules';

/** One item: inputs as an execution body, what the output should be, and tags. At most 64 KiB as JSON. */
export class DatasetItemDto {
  /** The execution body the item runs with, checked against the endpoint's input fields as an execution's is. */
  @ApiProperty({ type: 'object', additionalProperties: true })
  @IsObject()
  inputs: Record<string, unknown>;

  /** Any JSON value (null or absent: none), which `equals` and `field_equals` checks compare the output with. */
  @ApiAnyJson()
  @Allow()
  expectedOutput?: unknown;

  @Omittable()
  @TagsProperty('Labels of the item, by the rules of request tags. Default none')
  tags?: Tags;
}

/** 1 to 500 items added at once; they all go in or none does. */
export class AddDatasetItemsDto {
  @ApiProperty({ type: [DatasetItemDto], minItems: 1, maxItems: MAX_ITEMS_PER_CALL })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_ITEMS_PER_CALL)
  @IsObject({ each: true, message: 'each value in items must be an object' })
  @ValidateNested({ each: true })
  @Type(() => DatasetItemDto)
  items: DatasetItemDto[];
}

/** Executions of the dataset's endpoint copied in as items, in the order given; they all go in or none does. */
export class AddItemsFromLogsDto {
  /** 1 to 500 distinct execution log ids of the tenant, of the dataset's endpoint. */
  @ApiProperty({ type: [String], format: 'uuid', minItems: 1, maxItems: MAX_ITEMS_PER_CALL })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_ITEMS_PER_CALL)
  @ArrayUnique({ message: 'logIds must not repeat an id' })
  @IsUUID('all', { each: true })
  logIds: string[];

  /** Also copies each execution's output as the item's `expectedOutput` (default false: none). */
  @Omittable()
  @IsBoolean()
  withOutput?: boolean;
}

/** Query of GET /admin/v1/datasets/{id}/items: a page of the items at the current version, in the order added. */
export class ListDatasetItemsQuery {
  /** Page number, from 1. Default 1. */
  @PageNumber()
  page?: number;

  /** Rows per page, 1..50. Default 20. */
  @PageSize(ITEM_PAGE_SIZE)
  pageSize?: number;
}
