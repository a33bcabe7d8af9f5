export class HealthResponse {
  status: 'ok' | 'unavailable';
  /** Each dependency and whether it answered (readiness only). */
  checks?: Record<string, 'ok' | 'down'>;
}
