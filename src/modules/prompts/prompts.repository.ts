import { Injectable } from '@nestjs/common';
import { In, Not, Repository } from 'typeorm';
import type { PromptStatus } from './executable-prompt';
import { PromptEntity } from './prompt.entity';
import { TransactionHost } from '../../database/transactions';

export type PromptValues = Omit<PromptEntity, 'id' | 'tenantId' | 'endpointId' | 'createdAt' | 'updatedAt'>;

export interface PromptFilter {
  status?: PromptStatus;
  search?: string;
}

@Injectable()
export class PromptsRepository {
  constructor(private readonly txHost: TransactionHost) {}

  /** The open transaction's, when there is one. */
  private get prompts(): Repository<PromptEntity> {
    return this.txHost.tx.getRepository(PromptEntity);
  }

  findById(tenantId: string, id: string): Promise<PromptEntity | null> {
    return this.prompts.findOneBy({ tenantId, id });
  }

  findByIds(tenantId: string, ids: string[]): Promise<PromptEntity[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.prompts.findBy({ tenantId, id: In(ids) });
  }

  /** The endpoint's prompts among `ids`. */
  findOfEndpoint(tenantId: string, endpointId: string, ids: string[]): Promise<PromptEntity[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.prompts.findBy({ tenantId, endpointId, id: In(ids) });
  }

  /**
   * The prompt, row-locked until the caller's transaction ends (TypeORM refuses the lock outside one): serialises saves,
   * versions and transitions of one prompt.
   */
  lockById(tenantId: string, id: string): Promise<PromptEntity | null> {
    return this.prompts.findOne({ where: { tenantId, id }, lock: { mode: 'pessimistic_write' } });
  }

  /** Archived prompts only with status=Archived. */
  list(tenantId: string, endpointId: string, filter: PromptFilter): Promise<PromptEntity[]> {
    const query = this.prompts
      .createQueryBuilder('p')
      .where('p.tenant_id = :tenantId AND p.endpoint_id = :endpointId', { tenantId, endpointId })
      .orderBy('p.created_at', 'ASC')
      .addOrderBy('p.id', 'ASC');
    if (filter.status) query.andWhere('p.status = :status', { status: filter.status });
    else query.andWhere(`p.status <> 'Archived'`);
    if (filter.search) {
      const pattern = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query.andWhere('p.name ILIKE :pattern', { pattern });
    }
    return query.getMany();
  }

  /** Non-archived prompts of the endpoint that already use this name or this slug. */
  findActiveClashes(tenantId: string, endpointId: string, name: string, slug: string): Promise<PromptEntity[]> {
    return this.prompts
      .createQueryBuilder('p')
      .where('p.tenant_id = :tenantId AND p.endpoint_id = :endpointId', { tenantId, endpointId })
      .andWhere(`p.status <> 'Archived'`)
      .andWhere('(p.name = :name OR p.slug = :slug)', { name, slug })
      .getMany();
  }

  /** `?prompt=` matches the name or the slug of a prompt that is not archived. */
  findActiveBySelector(tenantId: string, endpointId: string, selector: string): Promise<PromptEntity | null> {
    return this.prompts
      .createQueryBuilder('p')
      .where('p.tenant_id = :tenantId AND p.endpoint_id = :endpointId', { tenantId, endpointId })
      .andWhere(`p.status <> 'Archived'`)
      .andWhere('(p.name = :selector OR p.slug = :selector)', { selector })
      .orderBy('CASE WHEN p.name = :selector THEN 0 ELSE 1 END')
      .getOne();
  }

  /**
   * A name or slug the endpoint's prompts gave up in a rename: the prompt that gave it up last, when it is not archived
   * (a prompt that has it now is looked for first, by findActiveBySelector).
   */
  findActiveByFormerSelector(tenantId: string, endpointId: string, selector: string): Promise<PromptEntity | null> {
    return this.prompts
      .createQueryBuilder('p')
      .innerJoin('prompt_former_names', 'f', 'f.prompt_id = p.id')
      .where('f.endpoint_id = :endpointId AND f.selector = :selector AND f.tenant_id = :tenantId', {
        endpointId,
        selector,
        tenantId,
      })
      .andWhere(`p.status <> 'Archived'`)
      .getOne();
  }

  /** Records the names and slugs the prompt gave up, each now owned by it (whichever prompt had given it up before). */
  async retireSelectors(tenantId: string, endpointId: string, promptId: string, selectors: string[]): Promise<void> {
    const unique = [...new Set(selectors)];
    const rows = unique.map((_, i) => `($1, $2, $${i + 4}, $3)`).join(', ');
    await this.prompts.query(
      `INSERT INTO prompt_former_names (tenant_id, endpoint_id, selector, prompt_id) VALUES ${rows}
       ON CONFLICT (endpoint_id, selector) DO UPDATE SET prompt_id = excluded.prompt_id, retired_at = now()`,
      [tenantId, endpointId, promptId, ...unique],
    );
  }

  activeNamesAndSlugs(tenantId: string, endpointId: string): Promise<Pick<PromptEntity, 'name' | 'slug'>[]> {
    return this.prompts.find({
      select: { name: true, slug: true },
      where: { tenantId, endpointId, status: Not('Archived') },
    });
  }

  insert(tenantId: string, endpointId: string, values: PromptValues): Promise<PromptEntity> {
    const repository = this.prompts;
    return repository.save(repository.create({ ...values, tenantId, endpointId }));
  }

  async update(tenantId: string, id: string, changes: Partial<PromptValues>): Promise<void> {
    // customParameters is a JSON object; TypeORM's deep-partial type does not model jsonb columns.
    await this.prompts.update({ tenantId, id }, changes as Record<string, unknown>);
  }
}
