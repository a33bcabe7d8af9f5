import { ApiProperty } from '@nestjs/swagger';

export class HealthResponse {
  status: 'ok' | 'unavailable';
  /** Each dependency and whether it answered (readiness only). */
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string', enum: ['ok', 'down'] } })
  checks?: Record<string, 'ok' | 'down'>;
}
