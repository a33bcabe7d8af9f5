import { Injectable } from '@nestjs/common';
import { ValidationError } from '../../common/errors/app-error';
import { ScoreConfigsRepository } from './score-configs.repository';
import { type ScoreFigures, type ScorePiece, type ScoreRead, ScoreRollupsRepository } from './score-rollups.repository';
import { EVAL_SCORE_PREFIX, type ScoreDataType } from './score-types';

export type { ScoreFigures, ScorePiece, ScoreRead } from './score-rollups.repository';

/** The sums of a score over a period, and what its config says about reading them. */
export interface ScoreStatsFigures {
  name: string;
  dataType: ScoreDataType;
  /** The config's categories (categorical scores), so that categories without scores count 0. */
  categories: string[];
  figures: ScoreFigures[];
}

/** The sums of a score over a period for the statistics (GET /stats?score=), from the hourly rollups and the scores. */
@Injectable()
export class ScoreStatsService {
  constructor(
    private readonly configs: ScoreConfigsRepository,
    private readonly rollups: ScoreRollupsRepository,
  ) {}

  /**
   * The score's sums over the pieces; a name no config of the tenant has is 400 naming `score`, except an evaluation's
   * check scores (`eval.<type>`, boolean), which need none.
   */
  async figures(tenantId: string, pieces: ScorePiece[], read: ScoreRead): Promise<ScoreStatsFigures> {
    const [configs, figures] = await Promise.all([
      this.configs.list(tenantId),
      this.rollups.figures(tenantId, pieces, read),
    ]);
    const config = configs.find((candidate) => candidate.name === read.name);
    if (!config && read.name.startsWith(EVAL_SCORE_PREFIX)) {
      return { name: read.name, dataType: 'boolean', categories: [], figures };
    }
    if (!config) throw new ValidationError(`score: no score config is named '${read.name}'`, 'score');
    return { name: config.name, dataType: config.dataType, categories: config.categories ?? [], figures };
  }

  /** Retention: forgets the sums of the hours before `cutoff`, whose executions are gone. */
  deleteRollupsBefore(cutoff: Date): Promise<void> {
    return this.rollups.deleteBefore(cutoff);
  }
}
