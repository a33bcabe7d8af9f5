import { api, unwrap } from '../../api/client';
import { Loading, Problems } from '../../ui/controls';
import { formatDate, formatMoment } from '../../ui/format';
import { useLoad } from '../../ui/use-load';
import { eventActor, type PromptEvent } from './event-text';
import { isCreationOf, type LiveInterval, liveIntervals, shareText } from './live-intervals';
import type { Prompt } from './version-shared';

/** The endpoint's history is read in pages of the most the list gives, back to the prompt's creation. */
const HISTORY_PAGE_SIZE = 50;
/** At most this many pages (1,000 events): a longer history shows its latest part, and says so. */
const HISTORY_PAGES = 20;

interface History {
  events: PromptEvent[];
  /** The events reach back to the prompt's creation: every time it was Live is among them. */
  isComplete: boolean;
}

/** The endpoint's events, newest first, back to the one that made the prompt (or as far as HISTORY_PAGES go). */
async function loadHistory(endpointId: string, promptId: string): Promise<History> {
  const events: PromptEvent[] = [];
  for (let page = 1; page <= HISTORY_PAGES; page++) {
    const loaded = await unwrap(
      api.GET('/admin/v1/endpoints/{id}/events', {
        params: { path: { id: endpointId }, query: { page, pageSize: HISTORY_PAGE_SIZE } },
      }),
    );
    events.push(...loaded.items);
    if (loaded.items.some((event) => isCreationOf(event, promptId))) return { events, isComplete: true };
    if (loaded.items.length < HISTORY_PAGE_SIZE) break;
  }
  return { events, isComplete: false };
}

/**
 * The times the prompt served traffic, newest first: which version was Live, from when to when (the time alone for
 * today), to what share of the endpoint's traffic, and the key whose change started it. Read from the endpoint's
 * history, since changes made on its other prompts and on its split change this prompt's share too.
 */
export function LiveHistory({ prompt, endpointId }: { prompt: Prompt; endpointId: string }) {
  const promptId = prompt.id;
  // Loaded again whenever the page reloads the prompt (after a rollback, its share may have changed).
  const loaded = useLoad(() => loadHistory(endpointId, promptId), [endpointId, promptId, prompt]);
  const history = loaded.data;
  const intervals = history ? liveIntervals(promptId, history.events) : [];
  const oldest = history?.events[history.events.length - 1];
  return (
    <div className="live-history">
      <h3 id="live-history-title">When it served traffic</h3>
      <Problems error={loaded.error} />
      {!history ? (
        !loaded.error && <Loading what="when it was Live" />
      ) : intervals.length > 0 ? (
        <ol className="event-list live-intervals" aria-labelledby="live-history-title">
          {intervals.map((interval) => (
            <IntervalItem key={`${interval.from}-${interval.versionNumber}-${interval.share}`} interval={interval} />
          ))}
        </ol>
      ) : (
        <p className="muted">{history.isComplete ? 'It has not been Live yet.' : 'No time Live is recorded.'}</p>
      )}
      {history && !history.isComplete && oldest && (
        <p className="muted">
          The history read starts on <time dateTime={oldest.createdAt}>{formatDate(oldest.createdAt)}</time>: times Live
          before it are not shown.
        </p>
      )}
    </div>
  );
}

function IntervalItem({ interval }: { interval: LiveInterval }) {
  const now = new Date();
  const from = <time dateTime={interval.from}>{formatMoment(interval.from, now)}</time>;
  return (
    <li className={interval.to === null ? 'is-current' : undefined}>
      <strong>v{interval.versionNumber}</strong>
      <span aria-hidden="true"> · </span>
      {interval.to === null ? (
        <span>Live since {from}</span>
      ) : (
        <span>
          Live from {from} to <time dateTime={interval.to}>{formatMoment(interval.to, now)}</time>
        </span>
      )}
      <span aria-hidden="true"> · </span>
      <span>{shareText(interval.share)}</span>
      <span aria-hidden="true"> · </span>
      <span>{eventActor(interval.startedBy)}</span>
    </li>
  );
}
