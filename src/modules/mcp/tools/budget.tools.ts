import { Injectable } from '@nestjs/common';
import { BudgetsService } from '../../budgets/budgets.service';
import { defineTool, McpTool, McpToolGroup } from '../mcp-tool';

/** Spend budgets, read only, as GET /admin/v1/budgets answers them. */
@Injectable()
export class BudgetTools extends McpToolGroup {
  readonly toolset = 'budgets';

  constructor(private readonly budgets: BudgetsService) {
    super();
  }

  tools(): McpTool[] {
    return [
      defineTool({
        name: 'list_budgets',
        title: 'List spend budgets',
        description:
          "The tenant's spend budgets (scope key, endpoint, tenant or tag; period day or month, UTC; limitUsd; enabled), " +
          "each with its current period's status: periodStart, periodEnd, spentUsd, reservedUsd (calls in flight) and " +
          'remainingUsd. A call whose worst-case cost is more than a budget has left is refused with budget_exceeded.',
        access: 'read',
        output: 'list',
        run: ({ principal }) => this.budgets.list(principal.tenantId),
      }),
    ];
  }
}
