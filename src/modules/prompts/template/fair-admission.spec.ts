import { ClientClosedError, OverloadedError } from '../../../common/errors/app-error';
import { FairAdmission, type ReleaseSlot } from './fair-admission';

/** Admits `tenant` and records, in `order`, when its admission was granted (or how it was refused). */
function track(admission: FairAdmission, order: string[], tenant: string, label: string, signal?: AbortSignal) {
  const slot: { release?: ReleaseSlot; error?: unknown } = {};
  const admitted = admission.admit(tenant, signal).then(
    (release) => {
      order.push(label);
      slot.release = release;
    },
    (error: unknown) => {
      order.push(`${label}!`);
      slot.error = error;
    },
  );
  return Object.assign(slot, { admitted });
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('FairAdmission', () => {
  it('lets a tenant alone use every slot, and queues the rest of its callers', async () => {
    const admission = new FairAdmission(4, 10);
    const order: string[] = [];
    const calls = ['a1', 'a2', 'a3', 'a4', 'a5'].map((label) => track(admission, order, 'A', label));
    await settle();
    expect(order).toEqual(['a1', 'a2', 'a3', 'a4']);
    expect(admission.usage('A')).toEqual({ inUse: 4, waiting: 1 });
    calls[0].release!();
    await settle();
    expect(order).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
  });

  it('gives a freed slot to another waiting tenant before the tenant that holds them, up to half the slots', async () => {
    const admission = new FairAdmission(4, 100);
    const order: string[] = [];
    const a = Array.from({ length: 10 }, (_, i) => track(admission, order, 'A', `a${i}`));
    await settle();
    const b = [
      track(admission, order, 'B', 'b0'),
      track(admission, order, 'B', 'b1'),
      track(admission, order, 'B', 'b2'),
    ];
    await settle();
    expect(order).toEqual(['a0', 'a1', 'a2', 'a3']);
    // A holds 4 of 4 while B waits: the next two freed slots go to B, then A and B take turns at half each.
    a[0].release!();
    await settle();
    a[1].release!();
    await settle();
    expect(order.slice(4)).toEqual(['b0', 'b1']);
    expect(admission.usage('A').inUse).toBe(2);
    a[2].release!();
    await settle();
    // A holds 1, B holds 2 of its half: A's turn.
    expect(order.slice(6)).toEqual(['a4']);
    b[0].release!();
    await settle();
    expect(order.slice(7)).toEqual(['b2']);
    // B has no one waiting any more: A may take every free slot again.
    b[1].release!();
    b[2].release!();
    await settle();
    expect(order.slice(8)).toEqual(['a5', 'a6']);
    expect(admission.usage()).toEqual({ inUse: 4, waiting: 3 });
  });

  it('serves waiting tenants in turn, one caller each, whatever their queue lengths', async () => {
    const admission = new FairAdmission(1, 100);
    const order: string[] = [];
    const calls = new Map([['a0', track(admission, order, 'A', 'a0')]]);
    await settle();
    for (const [tenant, label] of [
      ['A', 'a1'],
      ['A', 'a2'],
      ['A', 'a3'],
      ['B', 'b1'],
      ['C', 'c1'],
      ['C', 'c2'],
    ]) {
      calls.set(label, track(admission, order, tenant, label));
    }
    await settle();
    for (let i = 0; i < 6; i++) {
      calls.get(order[order.length - 1])!.release!();
      await settle();
    }
    expect(order).toEqual(['a0', 'a1', 'b1', 'c1', 'a2', 'c2', 'a3']);
  });

  it('refuses the newcomer of the tenant holding the most queue places when the queue is full', async () => {
    const admission = new FairAdmission(1, 3);
    const order: string[] = [];
    track(admission, order, 'A', 'a0');
    const queued = ['a1', 'a2', 'a3'].map((label) => track(admission, order, 'A', label));
    const refused = track(admission, order, 'A', 'a4');
    await refused.admitted;
    expect(refused.error).toBeInstanceOf(OverloadedError);
    expect((refused.error as OverloadedError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(queued.every((call) => call.error === undefined)).toBe(true);
    expect(admission.usage()).toEqual({ inUse: 1, waiting: 3 });
  });

  it("makes room for another tenant by refusing the largest tenant's newest waiter", async () => {
    const admission = new FairAdmission(1, 3);
    const order: string[] = [];
    const running = track(admission, order, 'A', 'a0');
    const queued = ['a1', 'a2', 'a3'].map((label) => track(admission, order, 'A', label));
    const b = track(admission, order, 'B', 'b1');
    await queued[2].admitted;
    expect(queued[2].error).toBeInstanceOf(OverloadedError);
    expect(admission.usage('B')).toEqual({ inUse: 0, waiting: 1 });
    running.release!();
    await queued[0].admitted;
    queued[0].release!();
    await b.admitted;
    expect(order).toEqual(['a0', 'a3!', 'a1', 'b1']);
  });

  it('a tie in queue places refuses the newcomer, never a waiter of the other tenant', async () => {
    const admission = new FairAdmission(1, 2);
    const order: string[] = [];
    track(admission, order, 'A', 'a0');
    const a1 = track(admission, order, 'A', 'a1');
    const b1 = track(admission, order, 'B', 'b1');
    const b2 = track(admission, order, 'B', 'b2');
    await b2.admitted;
    expect(b2.error).toBeInstanceOf(OverloadedError);
    expect(a1.error).toBeUndefined();
    expect(b1.error).toBeUndefined();
  });

  it('drops a waiter whose request was aborted, with the abort reason, and keeps its slot for others', async () => {
    const admission = new FairAdmission(1, 10);
    const order: string[] = [];
    const running = track(admission, order, 'A', 'a0');
    const controller = new AbortController();
    const leaving = track(admission, order, 'A', 'a1', controller.signal);
    const staying = track(admission, order, 'B', 'b1');
    await settle();
    const reason = new ClientClosedError('left');
    controller.abort(reason);
    await leaving.admitted;
    expect(leaving.error).toBe(reason);
    expect(admission.usage('A')).toEqual({ inUse: 1, waiting: 0 });
    running.release!();
    await staying.admitted;
    expect(order).toEqual(['a0', 'a1!', 'b1']);
    // An abort after the grant changes nothing: the caller holds its slot until it releases it.
    const done = new AbortController();
    const later = track(admission, order, 'A', 'a2', done.signal);
    staying.release!();
    await later.admitted;
    done.abort(reason);
    expect(admission.usage()).toEqual({ inUse: 1, waiting: 0 });
    later.release!();
    later.release!();
    expect(admission.usage()).toEqual({ inUse: 0, waiting: 0 });
  });

  it('refuses at once a caller whose request was already aborted', async () => {
    const admission = new FairAdmission(2, 10);
    const reason = new ClientClosedError('gone');
    await expect(admission.admit('A', AbortSignal.abort(reason))).rejects.toBe(reason);
    expect(admission.usage()).toEqual({ inUse: 0, waiting: 0 });
  });

  it('a tenant that left the queue no longer holds another to half the slots', async () => {
    const admission = new FairAdmission(2, 10);
    const order: string[] = [];
    const a = [track(admission, order, 'A', 'a0'), track(admission, order, 'A', 'a1')];
    await settle();
    const controller = new AbortController();
    track(admission, order, 'B', 'b0', controller.signal);
    track(admission, order, 'A', 'a2');
    await settle();
    controller.abort(new ClientClosedError('left'));
    a[0].release!();
    await settle();
    expect(order).toEqual(['a0', 'a1', 'b0!', 'a2']);
  });
});
