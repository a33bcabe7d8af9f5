import { randomUUID } from 'node:crypto';
import { constraintOf, isRefusedData } from '../../common/errors/database-errors';
import type { Clock } from '../../common/time/clock';
import { type TagRollupGroup, type TaggedRows, TagSums } from './log-rollup';

/** Where a window's sums go (TagSumWindowsRepository's writes). */
export interface TagSumsStore {
  /** Claims the window and adds these sums; false when it was summed already. */
  writeSums(window: string, groups: TagRollupGroup[]): Promise<boolean>;
  /** Claims the window and sums its stored rows instead. */
  sumFromRows(window: string): Promise<number>;
}

export interface TagSumWindowOptions {
  /** How long a window takes rows before it closes. */
  windowMs: number;
  /** A window closes sooner once it holds this many rows or groups (bounding the memory and a recount's read). */
  maxRows: number;
  maxGroups: number;
}

export const DEFAULT_TAG_WINDOW_OPTIONS: TagSumWindowOptions = { windowMs: 10_000, maxRows: 50_000, maxGroups: 20_000 };

/**
 * Closed windows kept for writing at most (5 minutes of them): beyond it, while the database refuses or fails the
 * writes, the oldest are let go, and the sweep sums them from their rows (see TagSumRecoveryService).
 */
const MAX_CLOSED = 30;

/** The check a batch fails when it would join a window already summed. */
const LATE_WINDOW_CHECK = 'tag_sum_windows_late_check';

const HOUR_MS = 3_600_000;

class Window {
  readonly id = randomUUID();
  readonly sums = new TagSums();
  rows = 0;
  /** The database refused its sums (an endpoint of them was deleted meanwhile): they are taken from its rows instead. */
  fromRows = false;

  constructor(
    readonly openedAt: number,
    /** The UTC hour it was opened in (epoch milliseconds of its start). */
    readonly hour: number,
  ) {}
}

/**
 * The tag sums of one writer, per window: the tag rollups of log rows are added once per window of a few seconds
 * rather than once per batch (a tag value's hour costs one upsert per window instead of one per batch). Each stored
 * row names its window, and the batch's statement registers the window for the row's tenant, so the sums of a window
 * this writer never writes (it stopped, or could not reach the database for long) are summed again from the rows by
 * any instance; a window is summed exactly once, by whoever claims it first. A window this writer lets go (a batch of
 * it failed without saying whether it was stored, or it waited too long to be written) is left to that sweep.
 *
 * Not safe for concurrent use: the writer calls it between its batches, one at a time.
 */
export class TagSumWindows {
  private open: Window | null = null;
  private readonly closed: Window[] = [];

  constructor(
    private readonly store: TagSumsStore,
    private readonly clock: Clock,
    private readonly options: TagSumWindowOptions = DEFAULT_TAG_WINDOW_OPTIONS,
  ) {}

  /** The id of the window the next batch's tagged rows join (the open window is closed first when it is due). */
  current(): string {
    if (this.open && this.isDue(this.open)) this.close();
    this.open ??= new Window(this.clock.now(), hourOf(this.clock.epochNow()));
    return this.open.id;
  }

  /**
   * A batch naming `window` was stored: its tagged rows count in the window's sums. (The writer calls current, stores
   * the batch and calls this before anything else closes or writes the window.)
   */
  stored(window: string, tagged: TaggedRows): void {
    if (tagged.length === 0 || this.open?.id !== window) return;
    this.open.sums.add(tagged);
    this.open.rows += tagged.length;
  }

  /**
   * A batch naming `window` failed. Refused (a row the database cannot take), it stored nothing and the window goes on.
   * Otherwise it may have been stored, or the window was summed meanwhile by another instance (the batch would have
   * joined it late): the window is let go, its sums in memory dropped, and the sweep sums its stored rows.
   */
  failed(window: string, error: unknown): void {
    if (this.open?.id !== window) return;
    if (isRefusedData(error) && constraintOf(error) !== LATE_WINDOW_CHECK) return;
    this.open = null;
  }

  /** Whether the open window is due to close (its sums to be written). */
  due(): boolean {
    return this.open !== null && this.isDue(this.open);
  }

  /** Closes the open window: the next batch opens another. */
  close(): void {
    if (!this.open) return;
    if (this.open.rows > 0) this.closed.push(this.open);
    this.open = null;
    if (this.closed.length > MAX_CLOSED) this.closed.shift();
  }

  /** Windows closed whose sums are not written yet. */
  get pending(): number {
    return this.closed.length;
  }

  /**
   * Writes the closed windows' sums, oldest first. A failure stops it and keeps the windows for the next call; sums
   * the database refuses (an endpoint of them was deleted meanwhile) are taken from the stored rows instead.
   */
  async writeClosed(): Promise<void> {
    while (this.closed.length > 0) {
      const window = this.closed[0];
      if (window.fromRows) await this.store.sumFromRows(window.id);
      else {
        try {
          await this.store.writeSums(window.id, window.sums.groups());
        } catch (error) {
          if (!isRefusedData(error)) throw error;
          window.fromRows = true;
          continue;
        }
      }
      this.closed.shift();
    }
  }

  /**
   * Due after its time, once it holds its most rows or groups, or once the UTC hour it opened in has passed: until its
   * sums are written the reads take its hours from the rows, and a window that ends with its hour keeps that to the
   * current hour, which they read from the rows anyway.
   */
  private isDue(window: Window): boolean {
    return (
      this.clock.now() - window.openedAt >= this.options.windowMs ||
      hourOf(this.clock.epochNow()) !== window.hour ||
      window.rows >= this.options.maxRows ||
      window.sums.size >= this.options.maxGroups
    );
  }
}

const hourOf = (epochMs: number) => Math.floor(epochMs / HOUR_MS) * HOUR_MS;
