import type { RecordedScore } from './execution-scores.service';
import type { ScoreSource, ScoreValue } from './score-types';

/** What `POST /api/v1/_scores` answers: the score as recorded. */
export interface ScoreAnswer {
  requestId: string;
  name: string;
  value: ScoreValue;
  comment: string | null;
  source: ScoreSource;
  /** When the execution's score of this name was first recorded. */
  createdAt: string;
}

export function toScoreAnswer(requestId: string, score: RecordedScore): ScoreAnswer {
  return {
    requestId,
    name: score.name,
    value: score.value,
    comment: score.comment,
    source: score.source,
    createdAt: new Date(score.createdAt).toISOString(),
  };
}
