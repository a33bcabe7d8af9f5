import { ValidationPipe } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError as ClassValidatorError } from 'class-validator';
import { ValidationError } from '../errors/app-error';

/** One message per problem, each naming its field by its full path (`inputFields.0.name must be …`). */
export function validationMessages(errors: ClassValidatorError[], parent = ''): string[] {
  const messages: string[] = [];
  for (const error of errors) {
    const path = parent ? `${parent}.${error.property}` : error.property;
    for (const message of Object.values(error.constraints ?? {})) {
      messages.push(message.startsWith(error.property) && path !== error.property ? `${parent}.${message}` : message);
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
  const errors = validateSync(instance, { whitelist: true, forbidNonWhitelisted: true, validationError: { target: false, value: false } });
  if (errors.length > 0) throw new ValidationError(validationMessages(errors), errors[0]?.property ?? null);
  return instance;
}
