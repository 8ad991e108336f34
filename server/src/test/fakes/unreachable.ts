/**
 * A stand-in for a connection the code under test must not use on the path a test takes (the database before a
 * cheap check has refused the request): any use throws, naming what was touched, so the test fails.
 */
export function unreachable<T>(name: string): T {
  const fail = (what: string): never => {
    throw new Error(`${name} was used (${what}) on a path that must not reach it`);
  };
  return new Proxy(() => undefined, {
    apply: () => fail('called'),
    get: (_target, key) => (key === 'then' ? undefined : fail(`.${String(key)}`)),
  }) as T;
}
