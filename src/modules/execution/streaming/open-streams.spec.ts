import { OpenStreams } from './open-streams';

describe('OpenStreams', () => {
  it('lets each key open up to its limit, apart from the other keys', () => {
    const streams = new OpenStreams(2);
    const first = streams.open('a');
    const second = streams.open('a');
    expect(first).not.toBeNull();
    expect(second).not.toBeNull();
    expect(streams.open('a')).toBeNull();
    expect(streams.open('b')).not.toBeNull();
    expect(streams.countOf('a')).toBe(2);
  });

  it('frees a place when a stream ends, once however often it is told', () => {
    const streams = new OpenStreams(1);
    const end = streams.open('a')!;
    end();
    end();
    expect(streams.countOf('a')).toBe(0);
    const again = streams.open('a');
    expect(again).not.toBeNull();
    expect(streams.open('a')).toBeNull();
    again!();
    expect(streams.countOf('a')).toBe(0);
  });
});
