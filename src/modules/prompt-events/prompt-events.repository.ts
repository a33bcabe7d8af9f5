import { Injectable } from '@nestjs/common';
import type { Repository } from 'typeorm';
import { TransactionHost } from '../../database/transactions';
import type { NewPromptEvent, PromptEventScope } from './prompt-event';
import { PromptEventEntity } from './prompt-event.entity';

@Injectable()
export class PromptEventsRepository {
  constructor(private readonly txHost: TransactionHost) {}

  /** The open transaction's, when there is one. */
  private get events(): Repository<PromptEventEntity> {
    return this.txHost.tx.getRepository(PromptEventEntity);
  }

  async insert(tenantId: string, event: NewPromptEvent): Promise<void> {
    await this.events.save(this.events.create({ tenantId, ...event }));
  }

  /** Rows `offset` to `offset + limit` of the scope's events, newest first. */
  page(tenantId: string, scope: PromptEventScope, offset: number, limit: number): Promise<PromptEventEntity[]> {
    return this.events.find({
      where: { tenantId, ...scope },
      order: { createdAt: 'DESC', seq: 'DESC' },
      skip: offset,
      take: limit,
    });
  }

  /** The scope's events, counted up to `cap + 1` at most. */
  async countUpTo(tenantId: string, scope: PromptEventScope, cap: number): Promise<number> {
    const [column, id] = 'promptId' in scope ? ['prompt_id', scope.promptId] : ['endpoint_id', scope.endpointId];
    const [row] = await this.events.query<{ count: number }[]>(
      `SELECT count(*)::int AS count FROM (SELECT 1 FROM prompt_events WHERE tenant_id = $1 AND ${column} = $2 LIMIT $3) matching`,
      [tenantId, id, cap + 1],
    );
    return Number(row.count);
  }
}
