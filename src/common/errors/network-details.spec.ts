import { withoutNetworkDetails } from './network-details';

describe('withoutNetworkDetails', () => {
  it.each([
    [
      'Cannot connect to API: connect ECONNREFUSED 127.0.0.1:4710',
      'Cannot connect to API: connect ECONNREFUSED [address]',
    ],
    ['connect ECONNREFUSED ::1:4710', 'connect ECONNREFUSED [address]'],
    ['request to [fd00::12]:8080 failed', 'request to [address] failed'],
    ['getaddrinfo ENOTFOUND llm.internal:11434', 'getaddrinfo ENOTFOUND [address]'],
    ['POST http://10.0.0.5:8000/v1/chat/completions returned 502', 'POST [address] returned 502'],
    ['see https://platform.openai.com/docs/errors.', 'see [address].'],
    ['upstream 192.168.1.20 refused', 'upstream [address] refused'],
  ])('removes the address from %p', (text, expected) => {
    expect(withoutNetworkDetails(text)).toBe(expected);
  });

  it('keeps the first 1000 characters of a long message', () => {
    const long = `${'a-'.repeat(50_000)}b`;
    expect(withoutNetworkDetails(long)).toBe(`${long.slice(0, 1000)}…`);
  });

  it('keeps ordinary text, times and numbers', () => {
    const text = "The server had an error while processing your request (HTTP 500) at 12:30:45; field 'n' must be 1.5";
    expect(withoutNetworkDetails(text)).toBe(text);
  });
});
