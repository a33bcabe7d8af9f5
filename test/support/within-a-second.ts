/**
 * Polls until `check` passes or a second has gone by (what the invalidation bus promises across instances), then
 * asserts once more; returns how long it took.
 */
export async function withinASecond(check: () => Promise<void>): Promise<number> {
  const started = Date.now();
  for (;;) {
    try {
      await check();
      return Date.now() - started;
    } catch (error) {
      if (Date.now() - started > 1_000) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}
