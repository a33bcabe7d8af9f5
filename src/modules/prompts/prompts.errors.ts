import { ConflictError, NotFoundError } from '../../common/errors/app-error';

export function promptNotFound(id: string): NotFoundError {
  return new NotFoundError(`Prompt ${id} not found`, 'prompt_not_found');
}

export function nameTaken(name: string): ConflictError {
  return new ConflictError(`A prompt named '${name}' (or with the same slug) already exists on this endpoint`);
}
