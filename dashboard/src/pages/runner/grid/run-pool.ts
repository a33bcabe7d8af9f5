/**
 * Runs `work` on every job, at most `limit` at a time, starting them in order; a job whose work throws does not stop
 * the others (each job reports its own failure). Once `stopped()` answers true, no further job starts: the ones
 * running finish, and the promise resolves with the jobs that never started.
 */
export async function runPool<T>(
  jobs: T[],
  limit: number,
  work: (job: T) => Promise<void>,
  stopped: () => boolean = () => false,
): Promise<T[]> {
  let next = 0;
  async function lane(): Promise<void> {
    while (next < jobs.length && !stopped()) {
      const job = jobs[next++];
      try {
        await work(job);
      } catch {
        // The job's own work reports its failure; a lane goes on with the next job.
      }
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, jobs.length)) }, lane));
  return jobs.slice(next);
}
