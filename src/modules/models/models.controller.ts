import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
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

  @Get()
  @ApiEnvelope([ModelResponse])
  list(): ModelResponse[] {
    return this.models.list().map(toModelResponse);
  }
}
