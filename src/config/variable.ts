import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  type ValidationArguments,
} from 'class-validator';

/**
 * One environment variable: how it is validated, its default, and its row of docs/configuration.md. A slice
 * (src/config/slices) declares the variables of one part of the service and maps them to its part of `AppConfig`;
 * declaring a variable there is the only edit it needs (its validation, the unknown-variable warnings and the
 * documentation check all read the declaration).
 */
export interface Variable<T = unknown, HasDefault extends boolean = boolean> {
  /** class-validator and class-transformer decorators, in the order they would be written above a property. */
  readonly rules: readonly PropertyDecorator[];
  /** The value when the variable is unset or empty. */
  readonly default: HasDefault extends true ? T : undefined;
  /** docs/configuration.md's Default column; a declared default must open it, as `value`. */
  readonly docDefault: string;
  /** docs/configuration.md's Meaning column. */
  readonly meaning: string;
}

interface Docs<T> {
  meaning: string;
  /** The Default column, when it says more than the default value (a unit, a derivation). */
  docDefault?: string;
  default?: T;
}

type Declared<T, D extends Docs<T>> = Variable<T, D extends { default: T } ? true : false>;

/** The values of a slice's variables after validation, each with its default applied. */
export type ValuesOf<V extends Record<string, Variable>> = {
  [N in keyof V]: V[N] extends Variable<infer T, infer HasDefault>
    ? HasDefault extends true
      ? T
      : T | undefined
    : never;
};

const isScalar = (value: unknown): value is string | number | boolean =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
const toInt = ({ value }: { value: unknown }) =>
  value === undefined || value === ''
    ? undefined
    : isScalar(value) && /^-?\d+$/.test(String(value))
      ? Number(value)
      : value;
const toBool = ({ value }: { value: unknown }) => {
  if (value === undefined || value === '') return undefined;
  const text = isScalar(value) ? String(value).toLowerCase() : '';
  return text === 'true' || text === '1' ? true : text === 'false' || text === '0' ? false : value;
};

function declare<T, D extends Docs<T>>(rules: PropertyDecorator[], docs: D): Declared<T, D> {
  const docDefault = docs.docDefault ?? (docs.default === undefined ? '(unset)' : `\`${String(docs.default)}\``);
  return {
    rules: [IsOptional(), ...rules],
    default: docs.default,
    docDefault,
    meaning: docs.meaning,
  } as Declared<T, D>;
}

/** A whole number within the bounds. */
export function int<const D extends Docs<number>>(
  bounds: { min?: number; max?: number },
  docs: D,
): Declared<number, D> {
  const rules = [Transform(toInt), IsInt()];
  if (bounds.min !== undefined) rules.push(Min(bounds.min));
  if (bounds.max !== undefined) rules.push(Max(bounds.max));
  return declare<number, D>(rules, docs);
}

/** true/1 or false/0, in any case. */
export function bool<const D extends Docs<boolean>>(docs: D): Declared<boolean, D> {
  const message = ({ property }: ValidationArguments) => `${property} must be true or false`;
  return declare<boolean, D>([Transform(toBool), IsBoolean({ message })], docs);
}

/** Any text. */
export function text<const D extends Docs<string>>(docs: D): Declared<string, D> {
  return declare<string, D>([IsString()], docs);
}

/** Text matching the pattern; `message` names the variable and what it must be. */
export function matching<const D extends Docs<string>>(pattern: RegExp, message: string, docs: D): Declared<string, D> {
  return declare<string, D>([Matches(pattern, { message })], docs);
}

/** One of the values; `normalize` applies before the check (trimming, lower case). */
export function oneOf<const V extends string, const D extends Docs<V>>(
  values: readonly V[],
  docs: D,
  options: { message?: string; normalize?: (value: string) => string } = {},
): Declared<V, D> {
  const { message, normalize } = options;
  const rules: PropertyDecorator[] = [];
  if (normalize)
    rules.push(Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? normalize(value) : value)));
  rules.push(message === undefined ? IsIn(values) : IsIn(values, { message }));
  return declare<V, D>(rules, docs);
}

/** The variables of one part of the service and how they make its part of the configuration. */
export interface Slice<V extends Record<string, Variable>, C extends object> {
  readonly variables: V;
  /** Its part of `AppConfig`, from the validated values (defaults applied) and the raw environment. */
  readonly config: (values: ValuesOf<V>, env: NodeJS.ProcessEnv) => C;
  /** Problems the decorators cannot see (a list's entries, two variables disagreeing), one per line. */
  readonly problems?: (raw: Record<string, string | undefined>, values: ValuesOf<V>) => string[];
}

export function defineSlice<V extends Record<string, Variable>, C extends object>(slice: Slice<V, C>): Slice<V, C> {
  return slice;
}
