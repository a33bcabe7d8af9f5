/** The rows an UPDATE or DELETE … RETURNING gave back (TypeORM answers such a statement with [rows, affected]). */
export function returned<T = unknown>(result: unknown): T[] {
  const answer = result as unknown[];
  return (Array.isArray(answer[0]) ? answer[0] : answer) as T[];
}
