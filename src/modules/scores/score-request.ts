import { ValidationError } from '../../common/errors/app-error';
import type { ScoreInput } from './execution-scores.service';
import { scoreCommentProblem } from './score-value';

/** A request id is at most this long (the service gives its own, or keeps a client's of 1 to 128 characters). */
export const MAX_REQUEST_ID_LENGTH = 128;
/** A score name is at most this long (longer ones cannot be declared). */
const MAX_NAME_LENGTH = 64;

/** The body of `POST /api/v1/_scores`: which execution, and the score. */
export interface ScoreRequest {
  requestId: string;
  input: ScoreInput;
}

/**
 * The body's fields, or a 400 naming the first bad one: an object with `requestId` (1 to 128 characters), `name` (a
 * string), `value` (a boolean, number or string; whether it fits the config is checked when it is recorded) and an
 * optional `comment` (at most 2,000 characters, or null). Other fields are ignored.
 */
export function scoreRequestOf(body: unknown): ScoreRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ValidationError('The body must be a JSON object', null);
  }
  const { requestId, name, value, comment } = body as Record<string, unknown>;
  if (typeof requestId !== 'string' || requestId.length === 0 || requestId.length > MAX_REQUEST_ID_LENGTH) {
    throw new ValidationError(
      `requestId must be the X-Request-Id of an execution (1 to ${MAX_REQUEST_ID_LENGTH} characters)`,
      'requestId',
    );
  }
  if (typeof name !== 'string' || name.length === 0 || name.length > MAX_NAME_LENGTH) {
    throw new ValidationError('name must be the name of one of the score configs', 'name');
  }
  if (typeof value !== 'boolean' && typeof value !== 'number' && typeof value !== 'string') {
    throw new ValidationError('value must be a boolean, a number or a category', 'value');
  }
  const commentProblem = scoreCommentProblem(comment);
  if (commentProblem) throw new ValidationError(commentProblem, 'comment');
  return { requestId, input: { name, value, comment: (comment as string | null | undefined) ?? null } };
}
