import { IsBoolean } from 'class-validator';
import { Omittable } from '../../../common/http/optional.decorator';

/** Arguments of get_evaluation_run beside the run's id. */
export class GetEvaluationRunDto {
  /** Also answers the items that regressed (the baseline passes, the candidate fails). Default false. */
  @Omittable()
  @IsBoolean()
  regressedItems?: boolean;
}
