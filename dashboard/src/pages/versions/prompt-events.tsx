import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { Loading, Pager, Problems } from '../../ui/controls';
import { formatDate } from '../../ui/format';
import { useLoad } from '../../ui/use-load';
import { eventActor, eventSummary } from './event-text';

const PAGE_SIZE = 20;

/** What happened to the prompt, newest first: each change with its time and the key that made it, paged. */
export function PromptEvents({ promptId }: { promptId: string }) {
  const [page, setPage] = useState(1);
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
  return (
    <section className="panel prompt-events" aria-labelledby="prompt-events-title">
      <h2 id="prompt-events-title">What happened</h2>
      <Problems error={loaded.error} />
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
