import { providerRefusalMessage } from './llm-client';

describe('providerRefusalMessage', () => {
  it("names the provider and the kind of refusal with its status, in the service's words", () => {
    expect(providerRefusalMessage('openai', 429)).toBe("the provider 'openai' refused the call: rate limited (429)");
    expect(providerRefusalMessage('anthropic', 401)).toBe(
      "the provider 'anthropic' refused the call: authentication failed (401)",
    );
    expect(providerRefusalMessage('google', 503)).toBe("the provider 'google' refused the call: server error (503)");
    expect(providerRefusalMessage('anthropic', 529)).toBe(
      "the provider 'anthropic' refused the call: server error (529)",
    );
    expect(providerRefusalMessage('local', 400)).toBe("the provider 'local' refused the call: bad request (400)");
    expect(providerRefusalMessage('local', 418)).toBe("the provider 'local' refused the call: request refused (418)");
  });
});
