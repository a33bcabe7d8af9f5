import { ClientClosedError } from '../../common/errors/app-error';

/**
 * The caller of one execution going away, plain or streamed: its signal aborts the provider call in progress and ends
 * the attempts still planned (retries, fallback models), and its reason is what the execution is logged with
 * (`client_closed`). Told once; what it is told later is ignored.
 */
export class ClientDeparture {
  private readonly controller = new AbortController();

  /** Aborted, with a ClientClosedError as its reason, once the client is gone. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The client closed the connection before the answer was complete. */
  left(): void {
    this.leave('The client closed the connection before the answer was complete');
  }

  /** The client read nothing of its event stream for `afterMs`: the service closed it. */
  stalled(afterMs: number): void {
    this.leave(`The client read nothing of the event stream for ${afterMs} ms: the stream was closed`);
  }

  private leave(message: string): void {
    if (!this.controller.signal.aborted) this.controller.abort(new ClientClosedError(message));
  }
}
