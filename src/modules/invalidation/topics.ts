// The kinds of change announced on the invalidation bus; the id is the changed record's id.

/** An API key was updated or revoked (id: key id). */
export const KEY_TOPIC = 'key';
/** An endpoint or its fields changed, was soft-deleted or restored (id: endpoint id). */
export const ENDPOINT_TOPIC = 'endpoint';
/** An endpoint was deleted permanently (id: endpoint id): its cached responses go too. */
export const ENDPOINT_DELETED_TOPIC = 'endpoint-deleted';
/** A prompt changed: content, status or default (id: endpoint id, since executions resolve prompts per endpoint). */
export const PROMPT_TOPIC = 'prompt';
