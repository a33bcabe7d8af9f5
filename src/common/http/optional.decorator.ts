import { ValidateIf } from 'class-validator';

/**
 * An optional property that may be omitted but not set to null (class-validator's IsOptional also lets null through,
 * which suits only the nullable fields).
 */
export const Omittable = () => ValidateIf((_object: unknown, value: unknown) => value !== undefined);
