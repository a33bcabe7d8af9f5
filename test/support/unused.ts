/** A collaborator the code under test must not call: reading any of its properties fails the test. */
export function unused<T extends object>(name: string): T {
  const fail = (_: object, property: string | symbol) => {
    throw new Error(`${name}.${String(property)} is not used here`);
  };
  return new Proxy({}, { get: fail }) as T;
}
