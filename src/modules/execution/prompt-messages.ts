import type { ChatMessage, ChatPart } from '../llm/llm-client';
import type { RenderedMessage } from '../prompts/template/message-blocks';
import type { FieldImage } from './input-validation';

/** A rendered message as logged and answered: its role and its text, images written as their placeholders. */
export interface LoggedMessage {
  role: RenderedMessage['role'];
  content: string;
}

export function loggedMessagesOf(messages: RenderedMessage[]): LoggedMessage[] {
  return messages.map(({ role, content }) => ({ role, content }));
}

/**
 * The messages sent to the model. An image reaches it as an image part where the template output it in a user message;
 * an image the template did not output (or output in a system or assistant message, which carry text only) is attached
 * at the end of the last user message, in field order, or in a user message of its own when there is none.
 */
export function chatMessagesOf(messages: RenderedMessage[], images: FieldImage[]): ChatMessage[] {
  const byField = new Map(images.map((image) => [image.field, image]));
  const placed = new Set<string>();
  const chat: ChatMessage[] = messages.map((message) => {
    const parts: ChatPart[] = [];
    for (const part of message.parts) {
      if (part.type === 'text') {
        if (part.text !== '') parts.push(part);
        continue;
      }
      const image = byField.get(part.field);
      if (!image || message.role !== 'user') continue;
      placed.add(part.field);
      parts.push({ type: 'image', image: { mediaType: image.mediaType, dataUri: image.dataUri } });
    }
    if (parts.length === 0) parts.push({ type: 'text', text: '' });
    return { role: message.role, parts };
  });
  const unplaced = images.filter((image) => !placed.has(image.field));
  if (unplaced.length === 0) return chat;
  const attached: ChatPart[] = unplaced.map(({ mediaType, dataUri }) => ({
    type: 'image',
    image: { mediaType, dataUri },
  }));
  const lastUser = chat.findLastIndex((message) => message.role === 'user');
  if (lastUser < 0) return [...chat, { role: 'user', parts: attached }];
  const target = chat[lastUser];
  // An empty text part is left out when images follow it.
  const parts = target.parts.filter((part) => part.type !== 'text' || part.text !== '');
  chat[lastUser] = { role: 'user', parts: [...parts, ...attached] };
  return chat;
}
