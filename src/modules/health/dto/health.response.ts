import { ApiProperty } from '@nestjs/swagger';

export class HealthResponse {
  /**
   * `ok`; `degraded`: answering without an optional dependency (Redis), still ready; `unavailable`: the database does
   * not answer; `stopping`: shutting down. Only `ok` and `degraded` come with 200.
   */
  @ApiProperty({ enum: ['ok', 'degraded', 'unavailable', 'stopping'] })
  status: 'ok' | 'degraded' | 'unavailable' | 'stopping';
  /** Each dependency and whether it answered (readiness only). */
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string', enum: ['ok', 'down'] } })
  checks?: Record<string, 'ok' | 'down'>;
}
