/**
 * Settles like `work`, or rejects with `message` once `ms` passed without an outcome. The work itself is not
 * cancelled: the caller has moved on (to a fallback, or to reporting the dependency down). One plain timer.
 */
export function settleWithin<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(message)), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
