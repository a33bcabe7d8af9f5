/** Every invalid variable, one per line of `problems`; the message puts them on one line. */
export class ConfigError extends Error {
  constructor(
    readonly problems: string[],
    message = `Invalid configuration: ${problems.join('; ')}`,
  ) {
    super(message);
  }
}
