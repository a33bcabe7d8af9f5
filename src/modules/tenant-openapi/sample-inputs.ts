import type { InputField } from '../endpoints/endpoint-definition';

/** A 1×1 transparent PNG: the smallest image a sample body can carry. */
export const SAMPLE_IMAGE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==';

/**
 * A body the endpoint accepts, for examples and snippets: every field with its default, or a value of its type within
 * its bounds (`your <name>` within maxLength, a number within minimum and maximum, a tiny PNG for an image).
 */
export function sampleInputsOf(fields: readonly InputField[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((field) => [field.name, sampleValueOf(field)]));
}

function sampleValueOf(field: InputField): unknown {
  if (field.defaultValue != null) return field.defaultValue;
  switch (field.dataType) {
    case 'string':
      return `your ${field.name}`.slice(0, field.maxLength ?? undefined);
    case 'integer':
    case 'number': {
      const low = field.minimum ?? Math.min(1, field.maximum ?? 1);
      return field.dataType === 'integer' ? Math.ceil(low) : low;
    }
    case 'boolean':
      return false;
    case 'object':
      return {};
    case 'array':
      return [];
    case 'image':
      return SAMPLE_IMAGE;
  }
}
