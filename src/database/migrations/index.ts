import { Foundation1764000000000 } from './1764000000000-foundation';
import { Prompts1764000100000 } from './1764000100000-prompts';
import { ExecutionLogs1764000200000 } from './1764000200000-execution-logs';
import { ListIndexes1764000300000 } from './1764000300000-list-indexes';
import { LogTruncatedFields1764000400000 } from './1764000400000-log-truncated-fields';
import { LogRequestIdIndex1764000500000 } from './1764000500000-log-request-id-index';
import { PromptFailover1764000600000 } from './1764000600000-prompt-failover';
import { LogStreaming1764000700000 } from './1764000700000-log-streaming';
import { TrafficSplit1764000800000 } from './1764000800000-traffic-split';
import { LogRollups1764000900000 } from './1764000900000-log-rollups';
import { RequestTags1764001000000 } from './1764001000000-request-tags';
import { FeedbackScores1764001100000 } from './1764001100000-feedback-scores';
import { ScoreRollups1764001200000 } from './1764001200000-score-rollups';
import { TagRollupReads1764001300000 } from './1764001300000-tag-rollup-reads';
import { Budgets1764001400000 } from './1764001400000-budgets';
import { Datasets1764001500000 } from './1764001500000-datasets';
import { EvaluationRuns1764001600000 } from './1764001600000-evaluation-runs';
import { TagValueRollups1764001700000 } from './1764001700000-tag-value-rollups';
import { PromptEvents1764001800000 } from './1764001800000-prompt-events';
import { OutputFieldConstraints1764001900000 } from './1764001900000-output-field-constraints';
import { LogRenderedMessages1764002000000 } from './1764002000000-log-rendered-messages';
import { EvalScores1764002100000 } from './1764002100000-eval-scores';
import { PromptFormerNames1764002200000 } from './1764002200000-prompt-former-names';
import { TagSumWindows1764002300000 } from './1764002300000-tag-sum-windows';

/** Every migration, in order. Listed explicitly so the app, the CLI and the tests load the same set. */
export const MIGRATIONS = [
  Foundation1764000000000,
  Prompts1764000100000,
  ExecutionLogs1764000200000,
  ListIndexes1764000300000,
  LogTruncatedFields1764000400000,
  LogRequestIdIndex1764000500000,
  PromptFailover1764000600000,
  LogStreaming1764000700000,
  TrafficSplit1764000800000,
  LogRollups1764000900000,
  RequestTags1764001000000,
  FeedbackScores1764001100000,
  ScoreRollups1764001200000,
  TagRollupReads1764001300000,
  Budgets1764001400000,
  Datasets1764001500000,
  EvaluationRuns1764001600000,
  TagValueRollups1764001700000,
  PromptEvents1764001800000,
  OutputFieldConstraints1764001900000,
  LogRenderedMessages1764002000000,
  EvalScores1764002100000,
  PromptFormerNames1764002200000,
  TagSumWindows1764002300000,
];
