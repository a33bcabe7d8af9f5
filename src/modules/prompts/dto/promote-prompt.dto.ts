import { IsBoolean, IsString, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { Omittable } from '../../../common/http/optional.decorator';

/** The longest reason a forced promotion records. */
export const FORCE_REASON_MAX_LENGTH = 500;

/** Body of POST /admin/v1/prompts/{id}/promote (optional). */
export class PromotePromptDto {
  /**
   * Promotes past the endpoint's promotion gate even when no evaluation run passes it (ReadWrite admin keys; MCP
   * cannot force). Needs `reason`; the version records `gate: {forced: true, reason, runId}`.
   */
  @Omittable()
  @IsBoolean()
  force?: boolean;

  /** Why the gate is forced; required with `force: true`. */
  @ValidateIf((dto: PromotePromptDto) => dto.force === true || dto.reason !== undefined)
  @IsString({ message: 'reason must be a string: force: true needs a reason' })
  @MinLength(1, { message: 'reason must not be empty: force: true needs a reason' })
  @MaxLength(FORCE_REASON_MAX_LENGTH)
  reason?: string;
}
