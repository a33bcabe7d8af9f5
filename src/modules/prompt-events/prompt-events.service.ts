import { Injectable } from '@nestjs/common';
import { type PageRequest, pageWindow } from '../../common/http/paging';
import { TransactionHost } from '../../database/transactions';
import type { NewPromptEvent, PromptEventScope, RecordedPromptEvent } from './prompt-event';
import { PromptEventsRepository } from './prompt-events.repository';

/** Event pages: 20 rows by default, at most 50 (as execution log pages). */
export const EVENT_PAGE_SIZE = { default: 20, max: 50 } as const;
/** Events are counted up to this many; past it, `total` is a lower bound. */
export const EVENT_TOTAL_CAP = 10_000;

export interface PromptEventPage {
  rows: RecordedPromptEvent[];
  page: number;
  pageSize: number;
  total: number;
  totalIsExact: boolean;
}

/**
 * The history of prompts and endpoints. An event is written only inside the transaction of the change it records
 * (refused otherwise), so a change that fails or is rolled back leaves no event, and every change that lands has one.
 */
@Injectable()
export class PromptEventsService {
  constructor(
    private readonly events: PromptEventsRepository,
    private readonly txHost: TransactionHost,
  ) {}

  /** Records `event` in the caller's open transaction. */
  record(tenantId: string, event: NewPromptEvent): Promise<void> {
    return this.txHost.withinTransaction(() => this.events.insert(tenantId, event));
  }

  /** A page of the scope's events, newest first, with their number (counted up to EVENT_TOTAL_CAP). */
  async page(tenantId: string, scope: PromptEventScope, request: PageRequest): Promise<PromptEventPage> {
    const { page, pageSize, offset } = pageWindow(request, EVENT_PAGE_SIZE.default);
    const [rows, count] = await Promise.all([
      this.events.page(tenantId, scope, offset, pageSize),
      this.events.countUpTo(tenantId, scope, EVENT_TOTAL_CAP),
    ]);
    return {
      rows,
      page,
      pageSize,
      total: Math.min(count, EVENT_TOTAL_CAP),
      totalIsExact: count <= EVENT_TOTAL_CAP,
    };
  }
}
