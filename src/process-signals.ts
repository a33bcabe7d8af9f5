/**
 * SIGTERM and SIGINT, handled from the first moment the process runs (main.ts imports this first): a signal that
 * arrives before the service can stop (while it starts) is kept, and handed to the handler once one is set, instead
 * of Node's default of dying at once with code 143.
 */
class ProcessSignals {
  private received?: NodeJS.Signals;
  private handler?: (signal: NodeJS.Signals) => void;

  constructor() {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => this.receive(signal));
  }

  /** The first signal received, if any. */
  get pending(): NodeJS.Signals | undefined {
    return this.received;
  }

  /** From now on each signal goes to `handler`; one received before it is handed over at once. */
  handle(handler: (signal: NodeJS.Signals) => void): void {
    this.handler = handler;
    if (this.received) handler(this.received);
  }

  private receive(signal: NodeJS.Signals): void {
    this.received ??= signal;
    this.handler?.(signal);
  }
}

export const processSignals = new ProcessSignals();
