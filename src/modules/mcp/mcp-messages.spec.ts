import { mcpMessagesOf, toolCallIdsIn } from './mcp-messages';

describe('toolCallIdsIn', () => {
  it('finds the ids of the tools/call requests of one message or a batch', () => {
    expect(toolCallIdsIn({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} })).toEqual([1]);
    expect(
      toolCallIdsIn([
        { jsonrpc: '2.0', id: 'a', method: 'tools/call' },
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        { jsonrpc: '2.0', method: 'tools/call' },
        null,
        'text',
        { jsonrpc: '2.0', id: 3, method: 'tools/call' },
      ]),
    ).toEqual(['a', 3]);
  });

  it('finds none in a body without tool calls or without a body', () => {
    expect(toolCallIdsIn({ jsonrpc: '2.0', id: 1, method: 'initialize' })).toEqual([]);
    expect(toolCallIdsIn(undefined)).toEqual([]);
    expect(toolCallIdsIn([])).toEqual([]);
  });
});

describe('mcpMessagesOf', () => {
  it('counts the messages of a batch, whatever they are, and finds its tool calls', () => {
    expect(
      mcpMessagesOf([
        { jsonrpc: '2.0', id: 1, method: 'tools/call' },
        { jsonrpc: '2.0', id: 2, method: 'resources/read' },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        'text',
      ]),
    ).toEqual({ size: 4, toolCallIds: [1], duplicateId: undefined });
    expect(mcpMessagesOf({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).toEqual({
      size: 1,
      toolCallIds: [],
      duplicateId: undefined,
    });
  });

  it('finds a request id used twice, of any method, telling 1 and "1" apart', () => {
    const call = (id: unknown, method = 'tools/call') => ({ jsonrpc: '2.0', id, method });
    expect(mcpMessagesOf([call(1), call(1)]).duplicateId).toBe(1);
    expect(mcpMessagesOf([call('a', 'tools/list'), call(2), call('a', 'resources/read')]).duplicateId).toBe('a');
    expect(mcpMessagesOf([call(1), call('1')]).duplicateId).toBeUndefined();
    // Notifications carry no id, and a message without a method is not a request.
    expect(mcpMessagesOf([call(undefined), call(undefined), { id: 3 }, { id: 3 }]).duplicateId).toBeUndefined();
  });
});
