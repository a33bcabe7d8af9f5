import { ApiEnum } from '../../../common/http/api-schema.decorators';
import type { LoggedMessage } from '../new-execution-log';

const MESSAGE_ROLES = ['system', 'user', 'assistant'] as const;

/**
 * A message of the rendered prompt: a template without message blocks makes one user message of its whole text; with
 * blocks, one message per block that rendered text. An image input the template output in it shows as `[image <field>]`.
 */
export class RenderedMessageResponse {
  /** `system`, `user`, or `assistant` (a few-shot turn). */
  @ApiEnum('MessageRole', MESSAGE_ROLES)
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/**
 * The messages of a log row or test run: those stored, or when none were (a prompt that made one user message of its
 * whole text, and rows written before messages were kept), that one message; null when the prompt did not render.
 */
export function toRenderedMessagesResponse(
  stored: LoggedMessage[] | null | undefined,
  renderedPrompt: string | null,
): RenderedMessageResponse[] | null {
  if (stored) return stored.map(({ role, content }) => ({ role: role as RenderedMessageResponse['role'], content }));
  return renderedPrompt === null ? null : [{ role: 'user', content: renderedPrompt }];
}
