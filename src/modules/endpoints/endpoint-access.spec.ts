import { endpointAccessRefusal } from './endpoint-access';

describe('endpointAccessRefusal', () => {
  const open = { id: 'e1', visibility: 'Public' as const };
  const closed = { id: 'e2', visibility: 'Private' as const };

  it('lets admin keys call every endpoint, Private ones included', () => {
    expect(endpointAccessRefusal({ type: 'admin', endpointIds: null }, open)).toBeNull();
    expect(endpointAccessRefusal({ type: 'admin', endpointIds: null }, closed)).toBeNull();
  });

  it('lets endpoint keys call Public endpoints only', () => {
    expect(endpointAccessRefusal({ type: 'endpoint', endpointIds: null }, open)).toBeNull();
    expect(endpointAccessRefusal({ type: 'endpoint', endpointIds: null }, closed)).toBe(
      'This endpoint is private: only admin keys may call it',
    );
  });

  it('keeps a restricted endpoint key to its endpointIds', () => {
    expect(endpointAccessRefusal({ type: 'endpoint', endpointIds: ['e1'] }, open)).toBeNull();
    expect(endpointAccessRefusal({ type: 'endpoint', endpointIds: ['e3'] }, open)).toBe(
      'This key has no access to this endpoint',
    );
    expect(endpointAccessRefusal({ type: 'endpoint', endpointIds: ['e2'] }, closed)).toBe(
      'This endpoint is private: only admin keys may call it',
    );
  });
});
