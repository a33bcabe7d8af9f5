import type { DatasetCheck } from '../datasets/dataset-check';

/**
 * The checks a run applies to each output: the dataset's, with `schema` first when the endpoint has output fields
 * other than an image and the dataset does not list it (the schema check is always on for such an endpoint).
 */
export function checksToRun(
  checks: readonly DatasetCheck[],
  outputFields: readonly { dataType: string }[],
): DatasetCheck[] {
  const structured = outputFields.some((field) => field.dataType !== 'image');
  if (!structured || checks.some((check) => check.type === 'schema')) return [...checks];
  return [{ type: 'schema' }, ...checks];
}
