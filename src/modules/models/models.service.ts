import { Injectable } from '@nestjs/common';
import { ValidationError } from '../../common/errors/app-error';
import { MOCK_MODELS, ModelInfo } from './model';

/** The model catalog: every model the service knows, with capabilities, pricing and availability. */
@Injectable()
export class ModelsService {
  private readonly models = new Map<string, ModelInfo>(MOCK_MODELS.map((m) => [m.id, m]));

  list(): ModelInfo[] {
    return [...this.models.values()];
  }

  find(id: string): ModelInfo | undefined {
    return this.models.get(id);
  }

  /** The model a prompt names; a 400 naming `llmModel` when the catalog does not have it. */
  require(id: string, field = 'llmModel'): ModelInfo {
    const model = this.models.get(id);
    if (!model) throw new ValidationError(`${field} '${id}' is not a model of the model list (GET /admin/v1/prompts/models)`, field);
    return model;
  }
}
