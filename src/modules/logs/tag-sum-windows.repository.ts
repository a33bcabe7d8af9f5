import { Injectable } from '@nestjs/common';
import { returned } from '../../database/returned-rows';
import { TransactionHost } from '../../database/transactions';
import { COUNTED_IN_STATS } from './execution-log-rollups.repository';
import { tagSumsStatement } from './log-batch-statement';
import { type RollupSource, type TagRollupGroup, rollUpTags } from './log-rollup';

/** A window of one tenant that no one has summed yet. */
export interface UnsummedWindow {
  id: string;
  tenantId: string;
}

/**
 * The windows of tag sums (see TagSumWindows): whose sums are written, and which hours the reads must take from the
 * rows until they are.
 */
@Injectable()
export class TagSumWindowsRepository {
  constructor(private readonly txHost: TransactionHost) {}

  /**
   * Claims the window and adds its sums to the tag rollups, for the tenants it claimed; false when another writer had
   * summed it already (nothing is added then).
   */
  writeSums(window: string, groups: TagRollupGroup[]): Promise<boolean> {
    return this.txHost.withTransaction(async () => {
      await this.holdEndpoints(groups);
      const { sql, params } = tagSumsStatement(groups, { window });
      const [row]: { claimed: number }[] = await this.txHost.tx.query(sql, params);
      return row.claimed > 0;
    });
  }

  /**
   * Claims the window (of one tenant, or of all its tenants) and sums its rows into the tag rollups, in one
   * transaction. The rows are read after the claim: a batch that joined the window before it is counted (the claim
   * waits for a batch still writing the window's row of the tenant, and the rows are read once it is done); a batch
   * that would join it after the claim is refused (see logBatchStatement); a batch that brings the window its first row
   * of a tenant after the claim registers that tenant unsummed, for the next sweep. With `untouchedForMs`, only a
   * window no batch has joined for that long (by the database's clock) is claimed. Returns how many rows were summed.
   */
  sumFromRows(window: string, options: { tenantId?: string; untouchedForMs?: number } = {}): Promise<number> {
    return this.txHost.withTransaction(async () => {
      const claimed = returned<{ tenant_id: string; earliest: Date; latest: Date }>(
        await this.txHost.tx.query(
          `UPDATE tag_sum_windows SET summed = true
           WHERE id = $1 AND NOT summed AND ($2::uuid IS NULL OR tenant_id = $2)
             AND ($3::float8 IS NULL OR touched_at < now() - make_interval(secs => $3 / 1000))
           RETURNING tenant_id, earliest, latest`,
          [window, options.tenantId ?? null, options.untouchedForMs ?? null],
        ),
      );
      const rows: RollupSource[] = [];
      for (const tenant of claimed)
        rows.push(...(await this.rowsOf(window, tenant.tenant_id, tenant.earliest, tenant.latest)));
      // All the tenants' sums in one statement, in the rollups' key order (as every writer upserts them).
      const groups = rollUpTags(rows);
      if (groups.length > 0) {
        await this.holdEndpoints(groups);
        const { sql, params } = tagSumsStatement(groups);
        await this.txHost.tx.query(sql, params);
      }
      return rows.length;
    });
  }

  /**
   * Holds the groups' endpoints until the transaction ends, so that a permanent endpoint delete waits for these sums (and
   * then takes them out of the tenant-wide sums with the endpoint's own), or went first: its endpoint's sums are then
   * refused (the endpoint is gone) and the window is summed from the rows left.
   */
  private async holdEndpoints(groups: TagRollupGroup[]): Promise<void> {
    const endpoints = [...new Set(groups.map((group) => group.endpointId))].sort();
    await this.txHost.tx.query(`SELECT 1 FROM endpoints WHERE id = ANY($1::uuid[]) ORDER BY id FOR KEY SHARE`, [
      endpoints,
    ]);
  }

  /** The windows no batch has joined for `untouchedForMs` and no one has summed, oldest first. */
  async abandoned(untouchedForMs: number, limit: number): Promise<UnsummedWindow[]> {
    return this.txHost.tx.query(
      `SELECT id, tenant_id AS "tenantId" FROM tag_sum_windows
       WHERE NOT summed AND touched_at < now() - make_interval(secs => $1::float8 / 1000) ORDER BY touched_at LIMIT $2`,
      [untouchedForMs, limit],
    );
  }

  /**
   * Forgets the windows summed and untouched for `untouchedForMs` (their rows keep their window's id, which nothing
   * reads again). A batch that registered a forgotten window would make it unsummed again, and the sweep would count
   * its rows a second time; no writer joins a window for more than its few seconds, so after a day none can.
   */
  async forgetSummed(untouchedForMs: number): Promise<void> {
    await this.txHost.tx.query(
      `DELETE FROM tag_sum_windows WHERE summed AND touched_at < now() - make_interval(secs => $1::float8 / 1000)`,
      [untouchedForMs],
    );
  }

  /**
   * The earliest time of the tenant's rows whose tag sums are not in the tag rollups yet (null when all are): the
   * reads of the tag rollups take the hours from then on from the rows.
   */
  async earliestUnsummed(tenantId: string): Promise<Date | null> {
    const [row]: { earliest: Date | null }[] = await this.txHost.tx.query(
      `SELECT min(earliest) AS earliest FROM tag_sum_windows WHERE tenant_id = $1 AND NOT summed`,
      [tenantId],
    );
    return row.earliest === null ? null : new Date(row.earliest);
  }

  /** What the tag rollups need of a window's rows of one tenant (evaluation runs' left out, as the writer leaves them). */
  private async rowsOf(window: string, tenantId: string, earliest: Date, latest: Date): Promise<RollupSource[]> {
    const rows: {
      endpoint_id: string;
      prompt_id: string | null;
      status: 'success' | 'error';
      error_code: string | null;
      cached: boolean;
      input_tokens: number | null;
      output_tokens: number | null;
      cost_usd: string | null;
      latency_ms: number;
      created_at: Date;
      tags: Record<string, string>;
    }[] = await this.txHost.tx.query(
      `SELECT endpoint_id, prompt_id, status, error_code, cached, input_tokens, output_tokens, cost_usd::text AS cost_usd,
         latency_ms, created_at, tags
       FROM execution_logs
       WHERE tenant_id = $1 AND created_at >= $2 AND created_at <= $3 AND tag_window = $4 AND ${COUNTED_IN_STATS}`,
      [tenantId, earliest, latest, window],
    );
    return rows.map((row) => ({
      tenantId,
      endpointId: row.endpoint_id,
      promptId: row.prompt_id,
      status: row.status,
      errorCode: row.error_code,
      cached: row.cached,
      inputTokens: row.input_tokens,
      outputTokens: row.output_tokens,
      costUsd: row.cost_usd === null ? null : Number(row.cost_usd),
      latencyMs: row.latency_ms,
      createdAt: new Date(row.created_at),
      tags: row.tags,
    }));
  }
}
