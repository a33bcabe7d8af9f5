import { Injectable } from '@nestjs/common';
import { ValidationError } from '../../common/errors/app-error';
import { TransactionHost } from '../../database/transactions';
import type { CreateScoreConfigDto, UpdateScoreConfigDto } from './dto/score-config.dto';
import { ScoreConfigResponse, toScoreConfigResponse } from './dto/score-config.response';
import { ExecutionScoresRepository } from './execution-scores.repository';
import { MAX_SCORE_CONFIGS, type ScoreConfigShape, scoreConfigProblems } from './score-config-rules';
import type { ScoreConfigEntity } from './score-config.entity';
import { ScoreConfigsRepository } from './score-configs.repository';
import { ScoreErrors } from './scores.errors';

/** The tenant's score configs: declared, changed and deleted under the rules of their values and their use. */
@Injectable()
export class ScoreConfigsService {
  constructor(
    private readonly txHost: TransactionHost,
    private readonly configs: ScoreConfigsRepository,
    private readonly scores: ExecutionScoresRepository,
  ) {}

  async list(tenantId: string): Promise<ScoreConfigResponse[]> {
    return (await this.configs.list(tenantId)).map(toScoreConfigResponse);
  }

  async get(tenantId: string, id: string): Promise<ScoreConfigResponse> {
    return toScoreConfigResponse(await this.found(tenantId, id));
  }

  /** A new config (a name taken in the tenant: 409); at most MAX_SCORE_CONFIGS per tenant (409). */
  create(tenantId: string, dto: CreateScoreConfigDto): Promise<ScoreConfigResponse> {
    const shape = checkedShape({
      dataType: dto.dataType,
      minimum: dto.minimum ?? null,
      maximum: dto.maximum ?? null,
      categories: dto.categories ?? null,
    });
    return this.txHost.withTransaction(async () => {
      // Creations of one tenant take turns, so two at once cannot both pass the count.
      await this.configs.lockTenantConfigs(tenantId);
      if ((await this.configs.count(tenantId)) >= MAX_SCORE_CONFIGS)
        throw ScoreErrors.tooManyConfigs(MAX_SCORE_CONFIGS);
      const config = await this.configs.create({
        tenantId,
        name: dto.name,
        ...shape,
        description: dto.description ?? '',
      });
      return toScoreConfigResponse(config);
    });
  }

  /**
   * Changes the given fields. When the type stays, bounds and categories not given are kept; when it changes, the new
   * type's must be given. Once a score uses the config, its name and type stay (409).
   */
  update(tenantId: string, id: string, dto: UpdateScoreConfigDto): Promise<ScoreConfigResponse> {
    return this.txHost.withTransaction(async () => {
      const current = await this.configs.findByIdForChange(tenantId, id);
      if (!current) throw ScoreErrors.configNotFound(id);
      const dataType = dto.dataType ?? current.dataType;
      const sameType = dataType === current.dataType;
      const kept = <T>(given: T | null | undefined, old: T | null): T | null =>
        given !== undefined ? (given ?? null) : sameType ? old : null;
      const shape = checkedShape({
        dataType,
        minimum: kept(dto.minimum, current.minimum),
        maximum: kept(dto.maximum, current.maximum),
        categories: kept(dto.categories, current.categories),
      });
      const name = dto.name ?? current.name;
      if ((name !== current.name || !sameType) && (await this.scores.isConfigUsed(tenantId, id))) {
        throw ScoreErrors.configInUse(
          current.name,
          name !== current.name ? 'its name cannot change' : 'its dataType cannot change',
        );
      }
      await this.configs.update(tenantId, id, {
        name,
        ...shape,
        description: dto.description ?? current.description,
      });
      return toScoreConfigResponse((await this.configs.findById(tenantId, id))!);
    });
  }

  /** Deletes a config no score uses (409 otherwise). */
  delete(tenantId: string, id: string): Promise<void> {
    return this.txHost.withTransaction(async () => {
      const current = await this.configs.findByIdForChange(tenantId, id);
      if (!current) throw ScoreErrors.configNotFound(id);
      if (await this.scores.isConfigUsed(tenantId, id))
        throw ScoreErrors.configInUse(current.name, 'it cannot be deleted');
      await this.configs.delete(tenantId, id);
    });
  }

  private async found(tenantId: string, id: string): Promise<ScoreConfigEntity> {
    const config = await this.configs.findById(tenantId, id);
    if (!config) throw ScoreErrors.configNotFound(id);
    return config;
  }
}

/** The shape, or a 400 with one message per problem (the first problem's field named). */
function checkedShape(shape: ScoreConfigShape): ScoreConfigShape {
  const problems = scoreConfigProblems(shape);
  if (problems.length > 0) {
    throw new ValidationError(
      problems.map((problem) => problem.message),
      problems[0].field,
    );
  }
  return shape;
}
