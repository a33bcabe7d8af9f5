/** The highest sampling temperature a prompt may set (0 to 2), whatever its provider. */
export const TEMPERATURE_MAX = 2;
