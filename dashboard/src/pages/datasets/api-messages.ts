import { ApiError } from '../../api/client';
import { messageOf } from '../../ui/controls';

/** A failure's messages, one per problem: the API's own, or the failure's text; none for no failure. */
export function messagesOf(error: unknown): string[] {
  if (!error) return [];
  return error instanceof ApiError ? error.messages : [messageOf(error)];
}
