// The kinds of change announced on the invalidation bus; the id is the changed record's id.

/** An API key was updated or revoked (id: key id). */
export const KEY_TOPIC = 'key';
/** An endpoint was deleted permanently (id: endpoint id): its cached responses go too. */
export const ENDPOINT_DELETED_TOPIC = 'endpoint-deleted';