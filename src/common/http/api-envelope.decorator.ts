import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath, type HeadersObject } from '@nestjs/swagger';

const FAILURE_SCHEMA = {
  type: 'object',
  required: ['succeeded', 'messages', 'data'],
  properties: {
    succeeded: { type: 'boolean', example: false },
    messages: { type: 'array', items: { type: 'string' } },
    data: { type: 'object', nullable: true, example: null },
  },
};

/**
 * Documents an admin route's envelope with its typed `data` (a model, a list of one, or null), plus the envelope
 * failures every admin route can answer, so a generated client is typed end to end.
 */
export function ApiEnvelope(
  model: Type<unknown> | [Type<unknown>] | null,
  options: { status?: number; headers?: HeadersObject } = {},
) {
  const item = Array.isArray(model) ? model[0] : model;
  const data = item === null
    ? { type: 'object', nullable: true, example: null }
    : Array.isArray(model)
      ? { type: 'array', items: { $ref: getSchemaPath(item) } }
      : { $ref: getSchemaPath(item) };
  const decorators = [
    ApiResponse({
      status: options.status ?? 200,
      description: 'Succeeded',
      ...(options.headers && { headers: options.headers }),
      schema: {
        type: 'object',
        required: ['succeeded', 'messages', 'data'],
        properties: { succeeded: { type: 'boolean', example: true }, messages: { type: 'array', items: { type: 'string' } }, data },
      },
    }),
    ApiResponse({ status: 400, description: 'The request failed validation; one message per problem', schema: FAILURE_SCHEMA }),
    ApiResponse({ status: 401, description: 'No key, or an invalid or revoked one', schema: FAILURE_SCHEMA }),
    ApiResponse({ status: 403, description: 'An endpoint key, or a ReadOnly key on a write', schema: FAILURE_SCHEMA }),
    ApiResponse({ status: 404, description: 'Unknown id (or another tenant\'s)', schema: FAILURE_SCHEMA }),
    ApiResponse({ status: 409, description: 'A transition or uniqueness conflict', schema: FAILURE_SCHEMA }),
  ];
  if (item) decorators.unshift(ApiExtraModels(item));
  return applyDecorators(...decorators);
}
