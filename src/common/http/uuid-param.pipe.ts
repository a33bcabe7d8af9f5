import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { ValidationError } from '../errors/app-error';

/** A route parameter that must be a UUID; a bad one is a 400 naming the parameter (`id must be a UUID`). */
@Injectable()
export class UuidParamPipe implements PipeTransform<string, string> {
  transform(value: string, metadata: ArgumentMetadata): string {
    const name = metadata.data ?? 'id';
    if (!isUUID(value)) throw new ValidationError(`${name} must be a UUID`, name);
    return value;
  }
}
