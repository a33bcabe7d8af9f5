/**
 * Compiles a regex check's pattern, the one place that does: the checks saved and the matching of outputs both call
 * it, so the engine can change here alone. Throws a SyntaxError, with the engine's message, when the pattern does not
 * compile.
 */
export function compileCheckPattern(pattern: string): RegExp {
  return new RegExp(pattern, 'u');
}
