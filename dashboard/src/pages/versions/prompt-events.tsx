import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { useWriteBlock } from '../../session';
import { Loading, Pager, Problems } from '../../ui/controls';
import { formatDate } from '../../ui/format';
import { useLoad } from '../../ui/use-load';
import { eventActor, eventSummary, type PromptEvent } from './event-text';
import { LiveHistory } from './live-history';
import { RollbackButton, RollbackResult, type RolledBack } from './rollback';
import type { Prompt } from './version-shared';

const PAGE_SIZE = 20;

/**
 * What happened to the prompt, newest first: the times it served traffic (version, share, the key that started each),
 * then each change with its time and the key that made it, paged. The newest event of each past version offers to
 * roll back to it.
 */
export function PromptEvents({
  prompt,
  endpointId,
  onRolledBack,
}: {
  prompt: Prompt;
  endpointId: string;
  /** After a rollback: the prompt may have stopped being the default. */
  onRolledBack: () => void;
}) {
  const promptId = prompt.id;
  const [page, setPage] = useState(1);
  const [rolledBack, setRolledBack] = useState<RolledBack | null>(null);
  const writeBlock = useWriteBlock();
  const loaded = useLoad(
    () =>
      unwrap(
        api.GET('/admin/v1/prompts/{id}/events', {
          params: { path: { id: promptId }, query: { page, pageSize: PAGE_SIZE } },
        }),
      ),
    [promptId, page],
  );
  const events = loaded.data;
  const offered = events ? rollbackEvents(events.items, prompt.currentVersion) : new Set<number>();
  return (
    <section className="panel prompt-events" aria-labelledby="prompt-events-title">
      <h2 id="prompt-events-title">What happened</h2>
      <LiveHistory prompt={prompt} endpointId={endpointId} />
      <h3>Every change</h3>
      <Problems error={loaded.error} />
      {rolledBack && <RollbackResult result={rolledBack} endpointId={endpointId} />}
      {!events ? (
        !loaded.error && <Loading what="the events" />
      ) : events.items.length === 0 ? (
        <p className="muted">Nothing recorded yet.</p>
      ) : (
        <>
          <ol className="event-list" aria-label="Events, newest first">
            {events.items.map((event, index) => (
              <li key={`${event.createdAt}-${index}`}>
                <strong>{eventSummary(event)}</strong>
                <span aria-hidden="true"> · </span>
                <time dateTime={event.createdAt}>{formatDate(event.createdAt)}</time>
                <span aria-hidden="true"> · </span>
                <span>{eventActor(event)}</span>
                {offered.has(index) && event.versionNumber !== null && (
                  <span className="event-rollback">
                    {' '}
                    <RollbackButton
                      prompt={prompt}
                      versionNumber={event.versionNumber}
                      writeBlock={writeBlock}
                      onDone={(result) => {
                        setRolledBack(result);
                        onRolledBack();
                      }}
                    />
                  </span>
                )}
              </li>
            ))}
          </ol>
          <Pager
            page={events.page}
            hasNextPage={
              events.page * events.pageSize < events.total ||
              (!events.totalIsExact && events.items.length === events.pageSize)
            }
            onPage={setPage}
          />
        </>
      )}
    </section>
  );
}

/** The indexes of the events that offer a rollback: the newest listed event of each version before the current one. */
function rollbackEvents(events: PromptEvent[], currentVersion: number): Set<number> {
  const seen = new Set<number>();
  const offered = new Set<number>();
  events.forEach((event, index) => {
    const version = event.versionNumber;
    if (version === null || version >= currentVersion || seen.has(version)) return;
    seen.add(version);
    offered.add(index);
  });
  return offered;
}
