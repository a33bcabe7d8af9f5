import type { RenderedMessage } from '../prompts/template/message-blocks';
import { chatMessagesOf, loggedMessagesOf } from './prompt-messages';

const photo = { field: 'photo', mediaType: 'image/png', dataUri: 'data:image/png;base64,AAAA' };
const chart = { field: 'chart', mediaType: 'image/jpeg', dataUri: 'data:image/jpeg;base64,BBBB' };
const image = (of: typeof photo) => ({ type: 'image', image: { mediaType: of.mediaType, dataUri: of.dataUri } });
const text = (content: string): RenderedMessage['parts'] => [{ type: 'text', text: content }];

describe('chatMessagesOf', () => {
  it('sends an image placed in a user message as an image part at its place', () => {
    const messages: RenderedMessage[] = [
      { role: 'system', content: 'Be brief.', parts: text('Be brief.') },
      {
        role: 'user',
        content: 'Look [image photo] now',
        parts: [
          { type: 'text', text: 'Look ' },
          { type: 'image', field: 'photo' },
          { type: 'text', text: ' now' },
        ],
      },
    ];
    expect(chatMessagesOf(messages, [photo])).toEqual([
      { role: 'system', parts: [{ type: 'text', text: 'Be brief.' }] },
      {
        role: 'user',
        parts: [{ type: 'text', text: 'Look ' }, image(photo), { type: 'text', text: ' now' }],
      },
    ]);
  });

  it('attaches images the template did not place at the end of the last user message, in field order', () => {
    const messages: RenderedMessage[] = [
      { role: 'user', content: 'first', parts: text('first') },
      { role: 'assistant', content: 'ok', parts: text('ok') },
      { role: 'user', content: 'second', parts: text('second') },
      { role: 'assistant', content: 'prefill', parts: text('prefill') },
    ];
    const chat = chatMessagesOf(messages, [photo, chart]);
    expect(chat[0].parts).toEqual([{ type: 'text', text: 'first' }]);
    expect(chat[2].parts).toEqual([{ type: 'text', text: 'second' }, image(photo), image(chart)]);
    expect(chat[3].parts).toEqual([{ type: 'text', text: 'prefill' }]);
  });

  it('sends system and assistant messages as text: an image output there is attached to the last user message', () => {
    const messages: RenderedMessage[] = [
      { role: 'system', content: '[image photo]', parts: [{ type: 'image', field: 'photo' }] },
      { role: 'user', content: 'Describe', parts: text('Describe') },
    ];
    expect(chatMessagesOf(messages, [photo])).toEqual([
      { role: 'system', parts: [{ type: 'text', text: '' }] },
      { role: 'user', parts: [{ type: 'text', text: 'Describe' }, image(photo)] },
    ]);
  });

  it('adds a user message for the images when the template made none', () => {
    const messages: RenderedMessage[] = [{ role: 'system', content: 'S', parts: text('S') }];
    expect(chatMessagesOf(messages, [photo])).toEqual([
      { role: 'system', parts: [{ type: 'text', text: 'S' }] },
      { role: 'user', parts: [image(photo)] },
    ]);
  });

  it('leaves out an empty text before attached images, and keeps an empty message as empty text', () => {
    expect(chatMessagesOf([{ role: 'user', content: '', parts: text('') }], [photo])).toEqual([
      { role: 'user', parts: [image(photo)] },
    ]);
    expect(chatMessagesOf([{ role: 'user', content: '', parts: text('') }], [])).toEqual([
      { role: 'user', parts: [{ type: 'text', text: '' }] },
    ]);
  });
});

describe('loggedMessagesOf', () => {
  it('keeps each role and text, images as their placeholders', () => {
    const messages: RenderedMessage[] = [
      { role: 'user', content: 'Look [image photo]', parts: [{ type: 'text', text: 'Look ' }] },
    ];
    expect(loggedMessagesOf(messages)).toEqual([{ role: 'user', content: 'Look [image photo]' }]);
  });
});
