import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { KeyEnvironment } from '../../common/auth/principal';
import type { ExecutionSource, LoggedAttempt, PromptAssignment } from './new-execution-log';

/** One execution. Rows are written in batches by the log writer, never updated. */
@Entity('execution_logs')
export class ExecutionLogEntity {
  @PrimaryColumn('uuid') id: string;
  @Column('uuid') tenantId: string;
  @Column('uuid') endpointId: string;
  @Column({ type: 'uuid', nullable: true }) promptId: string | null;
  @Column({ type: 'int', nullable: true }) promptVersion: number | null;
  @Column({ type: 'varchar', nullable: true }) assignment: PromptAssignment | null;
  @Column({ type: 'varchar' }) source: ExecutionSource;
  @Column({ type: 'uuid', nullable: true }) keyId: string | null;
  @Column({ type: 'varchar', nullable: true }) keyEnvironment: KeyEnvironment | null;
  @Column() requestId: string;
  @Column({ type: 'varchar' }) status: 'success' | 'error';
  @Column('smallint') httpStatus: number;
  @Column({ type: 'varchar', nullable: true }) errorCode: string | null;
  @Column() cached: boolean;
  @Column({ type: 'varchar', nullable: true }) llmModel: string | null;
  @Column({ type: 'int', nullable: true }) inputTokens: number | null;
  @Column({ type: 'int', nullable: true }) outputTokens: number | null;
  /** numeric: the driver returns a string; the response mapper turns it into a number. */
  @Column({ type: 'numeric', nullable: true }) costUsd: string | null;
  @Column('int') latencyMs: number;
  /** Answered as an event stream. */
  @Column({ default: false }) streamed: boolean;
  /** Streamed calls: milliseconds from the start of the call to the first piece of the answer (null when none came). */
  @Column({ type: 'int', nullable: true }) ttftMs: number | null;
  /** Why the model stopped (`stop`, `length`, …), when the provider said. */
  @Column({ type: 'varchar', nullable: true }) finishReason: string | null;
  @Column({ type: 'timestamptz' }) createdAt: Date;
  @Column({ type: 'jsonb', nullable: true }) inputs: unknown;
  @Column({ type: 'text', nullable: true }) renderedPrompt: string | null;
  /**
   * The rendered prompt's messages, `{role, content}` each; null when it did not render or made one user message of its
   * whole text (rows written before messages were kept too).
   */
  @Column({ type: 'jsonb', nullable: true }) renderedMessages: { role: string; content: string }[] | null;
  @Column({ type: 'text', nullable: true }) rawResponse: string | null;
  @Column({ type: 'jsonb', nullable: true }) parsedOutput: unknown;
  @Column({ type: 'text', nullable: true }) errorMessage: string | null;
  /** Which of inputs, renderedPrompt, rawResponse and parsedOutput were cut to the size limit (empty when none). */
  @Column({ type: 'text', array: true, default: () => "'{}'" }) truncatedFields: string[];
  /** Every model call the execution made, in order. */
  @Column({ type: 'jsonb', default: () => "'[]'" }) attempts: LoggedAttempt[];
  /** The request's tags over its key's default tags (`{}` when none). */
  @Column({ type: 'jsonb', default: () => "'{}'" }) tags: Record<string, string>;
  /** The window whose tag sums count the row (null when it has no tags, or is an evaluation run's). */
  @Column({ type: 'uuid', nullable: true }) tagWindow: string | null;
}
