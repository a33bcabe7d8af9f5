/** Longer messages are cut first: no client needs more, and it bounds the cost of the patterns below. */
const MAX_MESSAGE_LENGTH = 1000;
const URL_PATTERN = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>()\]]+/gi;
const BRACKETED_IPV6 = /\[[0-9a-f:.%]+\](?::\d+)?/gi;
const IPV6 = /(?<![\w:.])(?:[0-9a-f]{0,4}:){2,7}[0-9a-f]{0,4}(?:%\w+)?(?![\w:])/gi;
const IPV4 = /\b\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?\b/g;
// A host name has a letter somewhere (so times such as 12:30 are left alone).
const HOST_PORT = /\b(?=[a-z0-9.-]*[a-z])[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9-]+)*:\d{2,5}\b/gi;

/**
 * A message from elsewhere (a provider's answer, a library) without addresses: URLs, IP addresses and `host:port`
 * pairs become `[address]`, so no host, port or URL of the service's own network reaches a client. At most
 * MAX_MESSAGE_LENGTH characters are kept.
 */
export function withoutNetworkDetails(text: string): string {
  const bounded = text.length > MAX_MESSAGE_LENGTH ? `${text.slice(0, MAX_MESSAGE_LENGTH)}…` : text;
  return (
    bounded
      // Punctuation that ends the sentence is not part of the URL.
      .replace(URL_PATTERN, (url) => `[address]${/[.,;:!?]+$/.exec(url)?.[0] ?? ''}`)
      .replace(BRACKETED_IPV6, '[address]')
      .replace(IPV4, '[address]')
      .replace(IPV6, (match) => (match.includes('::') || match.split(':').length >= 4 ? '[address]' : match))
      .replace(HOST_PORT, '[address]')
  );
}
