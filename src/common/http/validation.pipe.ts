import { ValidationPipe } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError as ClassValidatorError } from 'class-validator';
import { ValidationError } from '../errors/app-error';

/** Constraints that check the type; when one fails, the other constraints of that property say nothing useful. */
const TYPE_CONSTRAINTS = ['isString', 'isInt', 'isNumber', 'isBoolean', 'isArray', 'isObject', 'isIn', 'isUuid'];

/**
 * One message per problem, each naming its field by its full path (`items.0.name must be …`). A value of the wrong
 * type is one problem: only its type message is kept (`name: 5` gives "name must be a string", not also the length).
 */
export function validationMessages(errors: ClassValidatorError[], parent = ''): string[] {
  const messages: string[] = [];
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const constraints = error.constraints ?? {};
    const typeFailure = TYPE_CONSTRAINTS.find((name) => name in constraints);
    const own = typeFailure ? [constraints[typeFailure]] : Object.values(constraints);
    for (const message of own) {
      if (parent && message === constraints.whitelistValidation) messages.push(`property ${path} should not exist`);
      else messages.push(parent && message.startsWith(error.property) ? `${parent}.${message}` : message);
    }
    if (error.children?.length) messages.push(...validationMessages(error.children, path));
  }
  return messages;
}

/** The global pipe: unknown properties are rejected by name, types are converted, failures become ValidationError. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => {
      const messages = validationMessages(errors);
      return new ValidationError(messages, errors[0]?.property ?? null);
    },
  });
}

/**
 * Validates a plain object against a request DTO class exactly as the global pipe does (same messages), for surfaces
 * that do not go through a controller body (MCP tools).
 */
export function validateDto<T extends object>(dto: new () => T, plain: unknown): T {
  const instance = plainToInstance(dto, plain ?? {});
  const errors = validateSync(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    validationError: { target: false, value: false },
  });
  if (errors.length > 0) throw new ValidationError(validationMessages(errors), errors[0]?.property ?? null);
  return instance;
}
