import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { TransactionHost } from '../../database/transactions';
import { returned } from '../../database/returned-rows';
import type { EvalRun, EvalRunItemRow, EvalRunStatus, EvalSide, NewEvalRun, StoredAnswer } from './eval-run';

/** The item rows of a run are inserted this many at a time. */
const INSERT_BATCH = 500;

const RUN_COLUMNS = `id, tenant_id AS "tenantId", endpoint_id AS "endpointId", dataset_id AS "datasetId",
  dataset_version AS "datasetVersion", key_id AS "keyId", candidate_prompt_id AS "candidatePromptId",
  candidate_version AS "candidateVersion", baseline_prompt_id AS "baselinePromptId",
  baseline_version AS "baselineVersion", concurrency, repeats, fresh, status, summary,
  error_message AS "errorMessage", created_at AS "createdAt", started_at AS "startedAt", finished_at AS "finishedAt"`;

const ITEM_COLUMNS = `id, run_id AS "runId", item_id AS "itemId", position, repeat, side, inputs,
  expected_output AS "expectedOutput", status, output, passed, checks, error_message AS "errorMessage",
  latency_ms AS "latencyMs", cost_usd AS "costUsd", judge_cost_usd AS "judgeCostUsd", cached, log_id AS "logId"`;

/** What a claimed unit of work carries. */
export interface ClaimedItem {
  id: string;
  tenantId: string;
  runId: string;
  itemId: string;
  position: number;
  repeat: number;
  side: EvalSide;
  inputs: unknown;
  expectedOutput: unknown;
}

/** What a finished unit of work records. */
export interface ItemResultValues {
  output: unknown;
  passed: boolean;
  checks: unknown;
  errorMessage: string | null;
  latencyMs: number | null;
  costUsd: number | null;
  /** What the judge checks' model calls cost. */
  judgeCostUsd: number;
  cached: boolean;
  logId: string | null;
}

/**
 * eval_runs, eval_run_items and eval_answers. Work is claimed in the database so that, with several instances on one
 * PostgreSQL, each item row runs once: a claim locks the run row (FOR UPDATE SKIP LOCKED: another instance claiming
 * for the same run skips it this round), counts the run's live claims against its concurrency, and takes open rows
 * with FOR UPDATE SKIP LOCKED. The same SQL runs on the embedded database, whose one connection makes it trivially
 * exclusive.
 */
@Injectable()
export class EvalRunsRepository {
  constructor(private readonly txHost: TransactionHost) {}

  private get db(): EntityManager {
    return this.txHost.tx;
  }

  /** A new run, owned by `owner` (the instance that created it) for `leaseSeconds`. */
  async insertRun(tenantId: string, run: NewEvalRun, owner: string, leaseSeconds: number): Promise<EvalRun> {
    const [row] = await this.db.query<EvalRun[]>(
      `INSERT INTO eval_runs (tenant_id, endpoint_id, dataset_id, dataset_version, key_id, candidate_prompt_id,
         candidate_version, baseline_prompt_id, baseline_version, concurrency, repeats, fresh, status, owner, owner_until)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'queued', $13, now() + make_interval(secs => $14))
       RETURNING ${RUN_COLUMNS}`,
      [
        tenantId,
        run.endpointId,
        run.datasetId,
        run.datasetVersion,
        run.keyId,
        run.candidate.promptId,
        run.candidate.versionNumber,
        run.baseline?.promptId ?? null,
        run.baseline?.versionNumber ?? null,
        run.concurrency,
        run.repeats,
        run.fresh,
        owner,
        leaseSeconds,
      ],
    );
    return row;
  }

  /** The run's units of work: one row per item, repeat and side, all pending. */
  async insertItems(
    tenantId: string,
    runId: string,
    rows: { itemId: string; position: number; repeat: number; side: EvalSide; inputs: unknown; expected: unknown }[],
  ): Promise<void> {
    for (let start = 0; start < rows.length; start += INSERT_BATCH) {
      const batch = rows.slice(start, start + INSERT_BATCH);
      await this.db.query(
        `INSERT INTO eval_run_items (tenant_id, run_id, item_id, position, repeat, side, inputs, expected_output)
         SELECT $1, $2, item_id, position, repeat, side, inputs, expected_output
         FROM json_to_recordset($3::json) AS r(item_id uuid, position int, repeat smallint, side varchar,
           inputs jsonb, expected_output jsonb)`,
        [
          tenantId,
          runId,
          JSON.stringify(
            batch.map((row) => ({
              item_id: row.itemId,
              position: row.position,
              repeat: row.repeat,
              side: row.side,
              inputs: row.inputs,
              expected_output: row.expected ?? null,
            })),
          ),
        ],
      );
    }
  }

  async findRun(tenantId: string, id: string): Promise<EvalRun | null> {
    const [row] = await this.db.query<EvalRun[]>(
      `SELECT ${RUN_COLUMNS} FROM eval_runs WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id],
    );
    return row ? normalizeRun(row) : null;
  }

  /** The endpoint's runs, newest first. */
  async listForEndpoint(tenantId: string, endpointId: string, limit: number, offset: number): Promise<EvalRun[]> {
    const rows = await this.db.query<EvalRun[]>(
      `SELECT ${RUN_COLUMNS} FROM eval_runs WHERE tenant_id = $1 AND endpoint_id = $2
       ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4`,
      [tenantId, endpointId, limit, offset],
    );
    return rows.map(normalizeRun);
  }

  /** The newest completed runs of the dataset for the prompt version, newest first (the promotion gate's evidence). */
  async completedRuns(
    tenantId: string,
    datasetId: string,
    promptId: string,
    versionNumber: number,
    limit: number,
  ): Promise<EvalRun[]> {
    const rows = await this.db.query<EvalRun[]>(
      `SELECT ${RUN_COLUMNS} FROM eval_runs
       WHERE tenant_id = $1 AND dataset_id = $2 AND candidate_prompt_id = $3 AND candidate_version = $4
         AND status = 'completed'
       ORDER BY finished_at DESC, id DESC LIMIT $5`,
      [tenantId, datasetId, promptId, versionNumber, limit],
    );
    return rows.map(normalizeRun);
  }

  async items(tenantId: string, runId: string): Promise<EvalRunItemRow[]> {
    const rows = await this.db.query<EvalRunItemRow[]>(
      `SELECT ${ITEM_COLUMNS} FROM eval_run_items WHERE tenant_id = $1 AND run_id = $2
       ORDER BY position, side DESC, repeat`,
      [tenantId, runId],
    );
    return rows.map(normalizeItem);
  }

  /** Cancels a queued or running run: no item of it is claimed any more. False when it had already ended. */
  async cancel(tenantId: string, id: string): Promise<boolean> {
    const rows = returned(
      await this.db.query(
        `UPDATE eval_runs SET status = 'cancelled', finished_at = now()
         WHERE tenant_id = $1 AND id = $2 AND status IN ('queued', 'running') RETURNING id`,
        [tenantId, id],
      ),
    );
    return rows.length > 0;
  }

  /** Runs with work left, oldest first (every tenant's: the background runner's poll). */
  async activeRuns(limit: number): Promise<{ id: string; tenantId: string }[]> {
    return this.db.query(
      `SELECT id, tenant_id AS "tenantId" FROM eval_runs WHERE status IN ('queued', 'running')
       ORDER BY created_at LIMIT $1`,
      [limit],
    );
  }

  /**
   * Claims up to `max` open rows of the run for `instance` until now + `leaseSeconds`, within the run's concurrency:
   * the claims of every instance that have not expired count against it. A run is claimed from by its owner only; an
   * instance takes a run over (becomes its owner) once the owner's lease has expired. Must run in a transaction (the
   * run's row lock is held until it commits). Nothing when the run has ended, another instance owns it, or another
   * instance is claiming for it right now.
   */
  async claim(runId: string, instance: string, max: number, leaseSeconds: number): Promise<ClaimedItem[]> {
    const [run] = await this.db.query<{ concurrency: number; owner: string | null; owned: boolean }[]>(
      `SELECT concurrency, owner, owner_until > now() AS owned FROM eval_runs
       WHERE id = $1 AND status IN ('queued', 'running') FOR UPDATE SKIP LOCKED`,
      [runId],
    );
    if (!run || (run.owner !== instance && run.owned)) return [];
    await this.db.query(
      `UPDATE eval_runs SET owner = $2, owner_until = now() + make_interval(secs => $3) WHERE id = $1`,
      [runId, instance, leaseSeconds],
    );
    const [{ live }] = await this.db.query<{ live: string }[]>(
      `SELECT count(*) AS live FROM eval_run_items WHERE run_id = $1 AND status = 'claimed' AND claimed_until > now()`,
      [runId],
    );
    const free = Math.min(max, Number(run.concurrency) - Number(live));
    if (free <= 0) return [];
    const claimed = returned<ClaimedItem>(
      await this.db.query(
        `UPDATE eval_run_items SET status = 'claimed', claimed_by = $2,
         claimed_until = now() + make_interval(secs => $3)
       WHERE id IN (
         SELECT id FROM eval_run_items
         WHERE run_id = $1 AND (status = 'pending' OR (status = 'claimed' AND claimed_until <= now()))
         ORDER BY position, repeat, side
         LIMIT $4 FOR UPDATE SKIP LOCKED)
       RETURNING id, tenant_id AS "tenantId", run_id AS "runId", item_id AS "itemId", position, repeat, side, inputs,
         expected_output AS "expectedOutput"`,
        [runId, instance, leaseSeconds, free],
      ),
    );
    if (claimed.length > 0) {
      await this.db.query(
        `UPDATE eval_runs SET status = 'running', started_at = now() WHERE id = $1 AND status = 'queued'`,
        [runId],
      );
    }
    return claimed.map((row) => ({ ...row, position: Number(row.position), repeat: Number(row.repeat) }));
  }

  /** Extends the leases of the runs `instance` owns and of the rows it still holds. */
  async renew(instance: string, ids: string[], leaseSeconds: number): Promise<void> {
    await this.db.query(
      `UPDATE eval_runs SET owner_until = now() + make_interval(secs => $2)
       WHERE owner = $1 AND status IN ('queued', 'running')`,
      [instance, leaseSeconds],
    );
    if (ids.length === 0) return;
    await this.db.query(
      `UPDATE eval_run_items SET claimed_until = now() + make_interval(secs => $3)
       WHERE id = ANY($2::uuid[]) AND claimed_by = $1 AND status = 'claimed'`,
      [instance, ids, leaseSeconds],
    );
  }

  /**
   * Records a row's result, if `instance` still holds its claim (a claim that expired and was taken by another
   * instance is that instance's to finish). Whether it was recorded.
   */
  async finish(id: string, instance: string, result: ItemResultValues): Promise<boolean> {
    const rows = returned(
      await this.db.query(
        `UPDATE eval_run_items SET status = 'done', claimed_until = NULL, output = $3::jsonb, passed = $4,
         checks = $5::jsonb, error_message = $6, latency_ms = $7, cost_usd = $8, cached = $9, log_id = $10,
         judge_cost_usd = $11, finished_at = now()
       WHERE id = $1 AND claimed_by = $2 AND status = 'claimed' RETURNING id`,
        [
          id,
          instance,
          JSON.stringify(result.output ?? null),
          result.passed,
          JSON.stringify(result.checks),
          result.errorMessage,
          result.latencyMs,
          result.costUsd,
          result.cached,
          result.logId,
          result.judgeCostUsd,
        ],
      ),
    );
    return rows.length > 0;
  }

  /**
   * Locks a running run and tells whether every row of it is done (then the caller completes it in the same
   * transaction). Waiting for the lock orders the instances finishing a run's last rows: the last one to lock sees them
   * all done. A run with rows still open is not locked at all: every finished row would otherwise hold the run row
   * that claims skip when locked, and the run's free places would be refilled in batches rather than one by one. (Each
   * row's finish is committed before this is asked, so of two instances finishing the last two rows, at least the
   * later one sees none open.)
   */
  async lockIfAllDone(runId: string): Promise<{ tenantId: string } | null> {
    if (await this.hasOpenRows(runId)) return null;
    const [run] = await this.db.query<{ tenantId: string }[]>(
      `SELECT tenant_id AS "tenantId" FROM eval_runs WHERE id = $1 AND status = 'running' FOR UPDATE`,
      [runId],
    );
    if (!run) return null;
    return (await this.hasOpenRows(runId)) ? null : run;
  }

  private async hasOpenRows(runId: string): Promise<boolean> {
    const [open] = await this.db.query<unknown[]>(
      `SELECT 1 FROM eval_run_items WHERE run_id = $1 AND status <> 'done' LIMIT 1`,
      [runId],
    );
    return open !== undefined;
  }

  async complete(runId: string, summary: unknown): Promise<void> {
    await this.db.query(
      `UPDATE eval_runs SET status = 'completed', summary = $2::jsonb, finished_at = now() WHERE id = $1`,
      [runId, JSON.stringify(summary)],
    );
  }

  async saveSummary(runId: string, summary: unknown): Promise<void> {
    await this.db.query(`UPDATE eval_runs SET summary = $2::jsonb WHERE id = $1`, [runId, JSON.stringify(summary)]);
  }

  /** Ends a run that cannot run (its prompt version or dataset is gone) with the reason. */
  async fail(runId: string, message: string): Promise<void> {
    await this.db.query(
      `UPDATE eval_runs SET status = 'failed', error_message = $2, finished_at = now()
       WHERE id = $1 AND status IN ('queued', 'running')`,
      [runId, message],
    );
  }

  async findAnswer(tenantId: string, key: string): Promise<StoredAnswer | null> {
    const [row] = await this.db.query<StoredAnswer[]>(
      `SELECT output, latency_ms AS "latencyMs", cost_usd AS "costUsd", log_id AS "logId"
       FROM eval_answers WHERE tenant_id = $1 AND answer_key = $2`,
      [tenantId, key],
    );
    return row ? { ...row, costUsd: row.costUsd === null ? null : Number(row.costUsd) } : null;
  }

  /** Keeps (or replaces, for a fresh run) the answer of a key. */
  async saveAnswer(tenantId: string, key: string, answer: StoredAnswer): Promise<void> {
    await this.db.query(
      `INSERT INTO eval_answers (tenant_id, answer_key, output, latency_ms, cost_usd, log_id)
       VALUES ($1, $2, $3::jsonb, $4, $5, $6)
       ON CONFLICT (tenant_id, answer_key) DO UPDATE SET output = excluded.output, latency_ms = excluded.latency_ms,
         cost_usd = excluded.cost_usd, log_id = excluded.log_id, created_at = now()`,
      [tenantId, key, JSON.stringify(answer.output ?? null), answer.latencyMs, answer.costUsd, answer.logId],
    );
  }

  /** The run's status (the runner checks it before each unit of work). */
  async statusOf(runId: string): Promise<EvalRunStatus | null> {
    const [row] = await this.db.query<{ status: EvalRunStatus }[]>(`SELECT status FROM eval_runs WHERE id = $1`, [
      runId,
    ]);
    return row?.status ?? null;
  }
}

function normalizeRun(row: EvalRun): EvalRun {
  return {
    ...row,
    datasetVersion: Number(row.datasetVersion),
    candidateVersion: Number(row.candidateVersion),
    baselineVersion: row.baselineVersion === null ? null : Number(row.baselineVersion),
    concurrency: Number(row.concurrency),
    repeats: Number(row.repeats),
  };
}

function normalizeItem(row: EvalRunItemRow): EvalRunItemRow {
  return {
    ...row,
    position: Number(row.position),
    repeat: Number(row.repeat),
    costUsd: row.costUsd === null ? null : Number(row.costUsd),
    judgeCostUsd: row.judgeCostUsd === null ? null : Number(row.judgeCostUsd),
  };
}
