import { ClientClosedError } from '../../common/errors/app-error';
import { ClientDeparture } from './client-departure';

describe('ClientDeparture', () => {
  it('aborts its signal once, with a client_closed error saying why', () => {
    const departure = new ClientDeparture();
    expect(departure.signal.aborted).toBe(false);
    departure.stalled(300);
    departure.left();
    expect(departure.signal.aborted).toBe(true);
    const reason: unknown = departure.signal.reason;
    expect(reason).toBeInstanceOf(ClientClosedError);
    expect((reason as ClientClosedError).code).toBe('client_closed');
    expect((reason as Error).message).toBe(
      'The client read nothing of the event stream for 300 ms: the stream was closed',
    );
  });

  it('a client that left is told as such', () => {
    const departure = new ClientDeparture();
    departure.left();
    expect((departure.signal.reason as Error).message).toBe(
      'The client closed the connection before the answer was complete',
    );
  });
});
