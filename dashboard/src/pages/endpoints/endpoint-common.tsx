import { api, ApiError, type Schemas, unwrapPage } from '../../api/client';
import { bounds } from '../../api/bounds';
import { CopyButton, messageOf } from '../../ui/controls';
import { useLoad } from '../../ui/use-load';

/** What every endpoints page shows of an endpoint, as the API answers it. */
export type Endpoint = Schemas['EndpointResponse'];
export type Visibility = Endpoint['visibility'];
export type InputField = Schemas['InputFieldResponse'];
export type OutputField = Schemas['OutputFieldResponse'];

/** The API's `Private` is called "Internal" everywhere in the dashboard. */
export const VISIBILITY_LABEL: Record<Visibility, string> = { Public: 'Public', Private: 'Internal' };
export const VISIBILITY_HINT: Record<Visibility, string> = {
  Public: 'callable with any endpoint key of the tenant (or one restricted to it)',
  Private: 'visible only to its creator and admins (only admin keys may call it)',
};

/** Public or Internal, with what it means as its tooltip. */
export function VisibilityBadge({ visibility }: { visibility: Visibility }) {
  return (
    <span className={`badge visibility-${visibility.toLowerCase()}`} title={VISIBILITY_HINT[visibility]}>
      {VISIBILITY_LABEL[visibility]}
    </span>
  );
}

const ENDPOINT = bounds.CreateEndpointDto;

/** The bounds the API puts on an endpoint's settings (its create and update bodies), and the defaults it applies. */
export const ENDPOINT_LIMITS = {
  name: ENDPOINT.name.maxLength,
  path: ENDPOINT.path.maxLength,
  description: ENDPOINT.description.maxLength,
  category: ENDPOINT.category.maxLength,
  cacheDurationSeconds: {
    min: ENDPOINT.cacheDurationSeconds.minimum,
    max: ENDPOINT.cacheDurationSeconds.maximum,
    default: 300,
  },
  timeoutSeconds: { min: ENDPOINT.timeoutSeconds.minimum, max: ENDPOINT.timeoutSeconds.maximum, default: 60 },
  rateLimit: { min: ENDPOINT.rateLimitPerMinute.minimum, max: ENDPOINT.rateLimitPerMinute.maximum },
} as const;

/** A path the API accepts: `/api/v1/` then lower-case letters, digits, `-`, `_` and `/`, not starting with a separator. */
export const PATH_PATTERN = /^\/api\/v1\/[a-z0-9][a-z0-9-_/]*$/;
export const PATH_RULE = 'path must match /api/v1/<slug> (lower-case letters, digits, -, _ and /)';

/** `Summarize Émails!` → `summarize-emails`: what a name becomes in a path. */
export function slugOf(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** The service's root (one level above the dashboard's page, whatever base path a proxy serves it under). */
export function serviceBase(): string {
  return new URL('../', document.baseURI).href.replace(/\/$/, '');
}

/** Quotes a string for a POSIX shell. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The curl command that calls an endpoint with a key (`$ENDPOINT_KEY`, or `$ADMIN_KEY` for an Internal one); with
 * `stream`, asking for the answer as server-sent events, printed as they arrive (`-N`).
 */
export function curlFor(
  path: string,
  body: Record<string, unknown>,
  keyVariable = 'ENDPOINT_KEY',
  { stream = false }: { stream?: boolean } = {},
): string {
  return [
    `curl ${stream ? '-N ' : ''}-X POST ${shellQuote(serviceBase() + path)} \\`,
    `  -H "x-api-key: $${keyVariable}" \\`,
    ...(stream ? [`  -H 'Accept: text/event-stream' \\`] : []),
    `  -H 'Content-Type: application/json' \\`,
    `  -d ${shellQuote(JSON.stringify(body))}`,
  ].join('\n');
}

/** A shell command (or a program) shown in full, with a copy button. */
export function CommandBlock({
  command,
  label,
  copyLabel = 'Copy command',
  wrap = true,
}: {
  command: string;
  label: string;
  copyLabel?: string;
  /** Whether long lines wrap (a command), or scroll sideways (a program, whose layout matters). */
  wrap?: boolean;
}) {
  return (
    <div className={`json-view command-block${wrap ? '' : ' no-wrap'}`}>
      <div className="json-view-bar">
        <span>{label}</span>
        <CopyButton text={command} label={copyLabel} />
      </div>
      <pre tabIndex={0} aria-label={label}>
        {command}
      </pre>
    </div>
  );
}

/**
 * The tenant's categories, for the filter and for the form's suggestions: read from its endpoints (a category exists
 * as long as an endpoint has it), at most 20 pages of 500.
 */
export function useCategories(): string[] {
  const loaded = useLoad(async () => {
    const categories = new Set<string>();
    for (let page = 1; page <= 20; page++) {
      const { items, hasNextPage } = await unwrapPage(
        api.GET('/admin/v1/endpoints', { params: { query: { page, pageSize: 500 } } }),
      );
      for (const endpoint of items) if (endpoint.category) categories.add(endpoint.category);
      if (!hasNextPage) break;
    }
    return [...categories].sort((a, b) => a.localeCompare(b));
  }, []);
  return loaded.data ?? [];
}

/**
 * The API's messages split by the form field each one names: a message that starts with a field's name (`path must
 * …`, `minimum must not …`) goes beside that field, every other one into the form's problems.
 */
export function problemsByField<K extends string>(
  error: unknown,
  fields: readonly K[],
  conflictField?: K,
): { byField: Partial<Record<K, string>>; others: string[] } {
  const byField: Partial<Record<K, string>> = {};
  const others: string[] = [];
  if (!(error instanceof ApiError)) return { byField, others: error ? [messageOf(error)] : [] };
  for (const message of error.messages) {
    const first = message.split(/[\s.:]/, 1)[0];
    const field = fields.find((name) => name === first) ?? (error.status === 409 ? conflictField : undefined);
    if (field && byField[field] === undefined) byField[field] = message;
    else if (field) byField[field] += ` ${message}`;
    else others.push(message);
  }
  return { byField, others };
}

/** The "problems" box of a form: the messages that name no field of it. */
export function FormProblems({ messages }: { messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <div className="problems" role="alert">
      <p className="problems-title">The service refused this:</p>
      <ul>
        {messages.map((message) => (
          <li key={message}>{message}</li>
        ))}
      </ul>
    </div>
  );
}
