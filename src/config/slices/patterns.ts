/** An http:// or https:// URL. */
export const HTTP_URL = /^https?:\/\/.+/;
