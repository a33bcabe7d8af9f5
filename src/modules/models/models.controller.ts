import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminRoute } from '../../common/auth/admin-route.decorator';
import { ApiEnvelope } from '../../common/http/api-envelope.decorator';
import { ModelResponse, toModelResponse } from './dto/model.response';
import { ModelsService } from './models.service';

/** Lives under /prompts/models; registered before the prompts controller so `models` is not an id. */
@ApiTags('models')
@AdminRoute()
@Controller('admin/v1/prompts/models')
export class ModelsController {
  constructor(private readonly models: ModelsService) {}

  /** Every model of the catalog, whether or not its provider is configured (`available`). */
  @Get()
  @ApiOperation({ operationId: 'listModels', summary: 'List the model catalog' })
  @ApiEnvelope([ModelResponse])
  list(): ModelResponse[] {
    return this.models.list().map(toModelResponse);
  }
}
