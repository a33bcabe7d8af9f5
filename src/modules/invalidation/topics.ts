// The kinds of change announced on the invalidation bus; the id is the changed record's id.

/** An API key was updated or revoked (id: key id). */
export const KEY_TOPIC = 'key';
/** An API key was created (id: key id): keys remembered as unknown are looked up again. */
export const KEY_CREATED_TOPIC = 'key-created';
/** An endpoint was deleted permanently (id: endpoint id): its cached responses go too. */
export const ENDPOINT_DELETED_TOPIC = 'endpoint-deleted';
/**
 * An endpoint, one of its fields, its default, or one of its prompts changed (id: endpoint id): cached endpoint
 * definitions and resolved prompts of that endpoint are dropped.
 */
export const ENDPOINT_TOPIC = 'endpoint';
/**
 * An endpoint of a tenant was created, changed, deleted or restored, or one of its fields changed (id: tenant id):
 * cached lists of the tenant's endpoint definitions are dropped.
 */
export const TENANT_ENDPOINTS_TOPIC = 'tenant-endpoints';
/** A budget of a tenant was created, changed or deleted (id: tenant id): cached lists of its budgets are dropped. */
export const TENANT_BUDGETS_TOPIC = 'tenant-budgets';
