import { useId } from 'react';
import { Link } from 'wouter';
import { api, unwrap } from '../../api/client';
import { JsonView, Loading, Problems } from '../../ui/controls';
import { useLoad } from '../../ui/use-load';
import { prettyJson } from '../logs/log-detail';
import { FailedTestRun, failedFieldOf } from './test-run';

/**
 * A failed run: the service's message, and when the run was logged (it reached the endpoint), what its log row holds:
 * the field the answer broke, the raw answer the model gave (an off-schema answer is still the model's text) and a
 * link to the row. A refusal before the run (the request itself was invalid) shows the message only.
 */
export function TestRunFailure({ error, unsaved }: { error: unknown; unsaved: boolean }) {
  const titleId = useId();
  const logId = error instanceof FailedTestRun ? error.logId : null;
  const field = error instanceof FailedTestRun ? failedFieldOf(error.messages) : null;
  return (
    <section className="test-run-failure" aria-labelledby={titleId}>
      <h3 id={titleId}>The run failed{unsaved ? ' (unsaved changes)' : ''}</h3>
      <Problems error={error} />
      {field && (
        <p>
          <span className="muted">Field that failed</span> <code>{field}</code>
        </p>
      )}
      {logId && <LoggedAnswer logId={logId} />}
    </section>
  );
}

function LoggedAnswer({ logId }: { logId: string }) {
  const log = useLoad(() => unwrap(api.GET('/admin/v1/logs/{id}', { params: { path: { id: logId } } })), [logId]);
  const raw = log.data?.rawResponse ?? null;
  return (
    <>
      <p>
        <Link href={`/logs/${logId}`}>View the log row</Link>
      </p>
      {log.loading && !log.data && <Loading what="the raw answer" />}
      <Problems error={log.error} />
      {log.data &&
        (raw === null ? (
          <p className="muted">The model gave no answer: the run failed before or while calling it.</p>
        ) : (
          <>
            <h4>Raw answer from the model</h4>
            <JsonView value={prettyJson(raw) ?? raw} label="As the model sent it" />
          </>
        ))}
    </>
  );
}
