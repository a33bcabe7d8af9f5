import { Body, Controller, Delete, Get, Post, Put } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminRoute, CurrentPrincipal } from '../../common/auth/admin-route.decorator';
import type { Principal } from '../../common/auth/principal';
import { ApiEnvelope } from '../../common/http/api-envelope.decorator';
import { UuidParam } from '../../common/http/api-schema.decorators';
import { BudgetsService } from './budgets.service';
import { CreateBudgetDto, UpdateBudgetDto } from './dto/budget.dto';
import { BudgetResponse } from './dto/budget.response';

const NOT_FOUND = 'No budget with this id in the tenant';

@ApiTags('budgets')
@AdminRoute()
@Controller('admin/v1/budgets')
export class BudgetsController {
  constructor(private readonly budgets: BudgetsService) {}

  @Post()
  @ApiOperation({ operationId: 'createBudget', summary: 'Create a spend budget' })
  @ApiEnvelope(BudgetResponse, {
    status: 201,
    write: true,
    failures: {
      400: true,
      404: 'The key or endpoint of the scope is not one of the tenant',
      409: 'The scope already has a budget of this period, or the tenant has 100 budgets',
      413: true,
    },
  })
  create(@CurrentPrincipal() principal: Principal, @Body() dto: CreateBudgetDto): Promise<BudgetResponse> {
    return this.budgets.create(principal.tenantId, dto);
  }

  /** Every budget of the tenant (at most 100), oldest first, each with its current period's status. */
  @Get()
  @ApiOperation({ operationId: 'listBudgets', summary: "List the tenant's spend budgets" })
  @ApiEnvelope([BudgetResponse])
  list(@CurrentPrincipal() principal: Principal): Promise<BudgetResponse[]> {
    return this.budgets.list(principal.tenantId);
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getBudget', summary: 'Get a spend budget with its status' })
  @ApiEnvelope(BudgetResponse, { failures: { 400: true, 404: NOT_FOUND } })
  get(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<BudgetResponse> {
    return this.budgets.get(principal.tenantId, id);
  }

  @Put(':id')
  @ApiOperation({ operationId: 'updateBudget', summary: "Change a budget's name, scope, period, limit or enabled" })
  @ApiEnvelope(BudgetResponse, {
    write: true,
    failures: { 400: true, 404: NOT_FOUND, 409: 'Another budget has this scope and period', 413: true },
  })
  update(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('id') id: string,
    @Body() dto: UpdateBudgetDto,
  ): Promise<BudgetResponse> {
    return this.budgets.update(principal.tenantId, id, dto);
  }

  @Delete(':id')
  @ApiOperation({ operationId: 'deleteBudget', summary: 'Delete a spend budget' })
  @ApiEnvelope(null, { write: true, failures: { 400: true, 404: NOT_FOUND } })
  async delete(@CurrentPrincipal() principal: Principal, @UuidParam('id') id: string): Promise<null> {
    await this.budgets.delete(principal.tenantId, id);
    return null;
  }
}
