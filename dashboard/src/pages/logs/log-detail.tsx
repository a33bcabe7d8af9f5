import { type ReactNode, useId, useState } from 'react';
import { Link, useParams } from 'wouter';
import { api, type Schemas, unwrap } from '../../api/client';
import { CopyButton, JsonView, Loading, PageHeader, Problems } from '../../ui/controls';
import { formatCost, formatMs, formatNumber } from '../../ui/format';
import { useLoad } from '../../ui/use-load';
import { sourceLabel, StatusBadge } from './log-format';
import { formatTimestamp } from './time-range';
import { sortedTags } from '../tags/rules';
import { TagChips } from '../tags/tag-chips';
import { LogScores } from '../scores/log-scores';
import { AddToDataset } from '../datasets/add-to-dataset';

/** How the log's prompt was chosen. */
const ASSIGNMENT_LABEL = {
  default: "the endpoint's default",
  pinned: 'pinned (?prompt= or a test run)',
  split: 'chosen by the traffic split',
} as const;
import './logs.css';

type LogDetailData = Schemas['ExecutionLogDetailResponse'];

/** Texts longer than this (characters or lines) start collapsed, their first lines shown. */
const COLLAPSE_CHARACTERS = 1500;
const COLLAPSE_LINES = 20;
const PREVIEW_LINES = 8;

export default function LogDetail() {
  const { id = '' } = useParams<{ id: string }>();
  const log = useLoad(() => unwrap(api.GET('/admin/v1/logs/{id}', { params: { path: { id } } })), [id]);
  const back = <Link href="/logs">← Logs</Link>;
  if (!log.data) {
    return (
      <section>
        <PageHeader title="Call" back={back} />
        {log.error ? <Problems error={log.error} /> : <Loading what="the call" />}
      </section>
    );
  }
  return <LogView log={log.data} back={back} onChanged={log.reload} />;
}

function LogView({ log, back, onChanged }: { log: LogDetailData; back: ReactNode; onChanged: () => void }) {
  // Names for the ids, when the endpoint and prompt still exist (a deleted one keeps its id on screen).
  const endpoint = useLoad(
    () => unwrap(api.GET('/admin/v1/endpoints/{id}', { params: { path: { id: log.endpointId } } })),
    [log.endpointId],
  );
  const prompt = useLoad(
    () =>
      log.promptId
        ? unwrap(api.GET('/admin/v1/prompts/{id}', { params: { path: { id: log.promptId } } }))
        : Promise.resolve(null),
    [log.promptId],
  );
  const truncated = new Set(log.truncatedFields);

  return (
    <section>
      <PageHeader title={`Call of ${formatTimestamp(log.createdAt)}`} back={back}>
        <RunAgain log={log} inputsCut={truncated.has('inputs')} />
      </PageHeader>

      <div className="panel">
        <dl className="log-facts">
          <Fact term="Status">
            <StatusBadge status={log.status} httpStatus={log.httpStatus} />
          </Fact>
          <Fact term="Error code">{log.errorCode ? <code>{log.errorCode}</code> : '—'}</Fact>
          <Fact term="Endpoint">
            {endpoint.data ? (
              <Link href={`/endpoints/${log.endpointId}`}>{endpoint.data.name}</Link>
            ) : (
              <code>{log.endpointId}</code>
            )}
            {endpoint.error !== undefined && !endpoint.data && <span className="muted"> (deleted)</span>}
          </Fact>
          <Fact term="Prompt and version">
            {log.promptId ? (
              <>
                {prompt.data ? (
                  <Link href={`/endpoints/${log.endpointId}/prompts/${log.promptId}`}>{prompt.data.name}</Link>
                ) : (
                  <code>{log.promptId}</code>
                )}
                {log.promptVersion !== null && (
                  <>
                    {' @ '}
                    <Link href={`/endpoints/${log.endpointId}/prompts/${log.promptId}/versions/${log.promptVersion}`}>
                      v{log.promptVersion}
                    </Link>
                  </>
                )}
                {log.assignment && <span className="muted"> · {ASSIGNMENT_LABEL[log.assignment]}</span>}
              </>
            ) : (
              '—'
            )}
          </Fact>
          <Fact term="Model">{log.llmModel ? <code>{log.llmModel}</code> : '—'}</Fact>
          <Fact term="Source">
            {sourceLabel(log.source)}
            {log.keyEnvironment && <span className="muted"> · {log.keyEnvironment} key</span>}
          </Fact>
          <Fact term="Tokens in / out">
            {formatNumber(log.inputTokens)} / {formatNumber(log.outputTokens)}
          </Fact>
          <Fact term="Cost">{formatCost(log.costUsd)}</Fact>
          <Fact term="Latency">{formatMs(log.latencyMs)}</Fact>
          <Fact term="Cached">{log.cached ? 'Yes: answered from the cache' : 'No'}</Fact>
          <Fact term="Streamed">
            {log.streamed
              ? `Yes: first piece after ${log.ttftMs === null ? '— (none sent)' : formatMs(log.ttftMs)}`
              : 'No'}
          </Fact>
          <Fact term="Finish reason">{log.finishReason ? <code>{log.finishReason}</code> : '—'}</Fact>
          <Fact term="Time">
            <time dateTime={log.createdAt}>{formatTimestamp(log.createdAt)}</time>
            <div className="muted mono">{log.createdAt}</div>
          </Fact>
          <Fact term="Request id">
            <span className="request-id">
              <code data-testid="request-id">{log.requestId}</code>
              <CopyButton text={log.requestId} label="Copy request id" />
            </span>
          </Fact>
          <Fact term="Log id">
            <code>{log.id}</code>
          </Fact>
          <Fact term="Tags">
            <TagChips tags={sortedTags(log.tags)} linked empty="None" />
          </Fact>
        </dl>
      </div>

      {log.truncatedFields.length > 0 && (
        <p className="notice" role="note">
          Cut by the log size limit: {log.truncatedFields.join(', ')}. Each keeps its first bytes followed by
          “…[truncated N bytes]”.
        </p>
      )}

      <LogSection title="Scores">
        <LogScores logId={log.id} scores={log.scores} onScored={onChanged} />
      </LogSection>
      <AddToDataset log={log} />

      {log.attempts.length > 0 && (
        <LogSection title="Attempts">
          <table className="attempts" aria-label="Attempts">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Model</th>
                <th scope="col">Outcome</th>
                <th scope="col">Status</th>
                <th scope="col">Latency</th>
                <th scope="col">Tokens in / out</th>
                <th scope="col">Cost</th>
                <th scope="col">Error</th>
              </tr>
            </thead>
            <tbody>
              {log.attempts.map((attempt, index) => (
                <tr key={index}>
                  <td>{index + 1}</td>
                  <td>
                    <code>{attempt.llmModel}</code>
                  </td>
                  <td>{attempt.outcome}</td>
                  <td>{attempt.httpStatus ?? '—'}</td>
                  <td>{formatMs(attempt.latencyMs)}</td>
                  <td>
                    {formatNumber(attempt.inputTokens)} / {formatNumber(attempt.outputTokens)}
                  </td>
                  <td>{formatCost(attempt.costUsd)}</td>
                  <td>{attempt.errorMessage ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </LogSection>
      )}

      {log.errorMessage && (
        <LogSection title="Error">
          <div className="long-text log-error">
            <pre tabIndex={0}>{log.errorMessage}</pre>
          </div>
        </LogSection>
      )}
      <LogSection title="Inputs" cut={truncated.has('inputs')}>
        <JsonOrText value={log.inputs} label="Inputs" cut={truncated.has('inputs')} />
      </LogSection>
      <LogSection title="Rendered prompt" cut={truncated.has('renderedPrompt')}>
        <LongText text={log.renderedPrompt} label="Rendered prompt" />
      </LogSection>
      {isChat(log.renderedMessages) && (
        <LogSection title="Messages" cut={truncated.has('renderedMessages')}>
          {log.renderedMessages.map((message, index) => (
            <LongText key={index} text={message.content} label={`${index + 1}. ${message.role}`} />
          ))}
        </LogSection>
      )}
      <LogSection title="Raw LLM response" cut={truncated.has('rawResponse')}>
        <LongText text={log.rawResponse} label="Raw LLM response" />
      </LogSection>
      <LogSection title="Parsed output" cut={truncated.has('parsedOutput')}>
        <JsonOrText value={log.parsedOutput} label="Parsed output" cut={truncated.has('parsedOutput')} />
      </LogSection>
    </section>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** Messages worth showing beside the rendered prompt: more than the one user message of the whole text. */
function isChat(
  messages: LogDetailData['renderedMessages'],
): messages is NonNullable<LogDetailData['renderedMessages']> {
  return !!messages && (messages.length > 1 || messages.some((message) => message.role !== 'user'));
}

function LogSection({ title, cut = false, children }: { title: string; cut?: boolean; children: ReactNode }) {
  const id = useId();
  return (
    <section className="log-section" aria-labelledby={id}>
      <h2 id={id}>
        {title}
        {cut && <span className="badge truncated">Truncated by the log size limit</span>}
      </h2>
      {children}
    </section>
  );
}

/**
 * A JSON value pretty-printed. A value cut by the log cap is stored as the string of its first bytes, so it is shown
 * as that text.
 */
function JsonOrText({ value, label, cut }: { value: unknown; label: string; cut: boolean }) {
  if (value === null || value === undefined) return <p className="muted">None recorded.</p>;
  if (cut || typeof value === 'string')
    return <LongText text={typeof value === 'string' ? value : JSON.stringify(value)} label={label} />;
  const text = JSON.stringify(value, null, 2);
  if (!isLong(text)) return <JsonView value={value} label={`${label} (JSON)`} />;
  return <LongText text={text} label={`${label} (JSON)`} />;
}

const isLong = (text: string) => text.length > COLLAPSE_CHARACTERS || lineCount(text) > COLLAPSE_LINES;
const lineCount = (text: string) => text.split('\n').length;

/** A text with a copy button; a long one shows its first lines and the rest behind a disclosure. */
function LongText({ text, label }: { text: string | null; label: string }) {
  const [open, setOpen] = useState(false);
  if (text === null) return <p className="muted">None recorded.</p>;
  const pretty = prettyJson(text);
  const shown = pretty ?? text;
  const long = isLong(shown);
  const lines = lineCount(shown);
  const size = `${formatNumber(shown.length)} characters, ${formatNumber(lines)} ${lines === 1 ? 'line' : 'lines'}${pretty ? ', JSON pretty-printed' : ''}`;
  return (
    <div className="long-text">
      <div className="long-text-bar">
        <span>
          {label} · {size}
        </span>
        <CopyButton text={text} />
      </div>
      {!long ? (
        <pre tabIndex={0}>{shown}</pre>
      ) : (
        <>
          {!open && (
            <pre className="preview">
              {shown
                .split('\n')
                .slice(0, PREVIEW_LINES)
                .join('\n')
                .slice(0, COLLAPSE_CHARACTERS / 2)}
              …
            </pre>
          )}
          <details onToggle={(event) => setOpen(event.currentTarget.open)}>
            <summary>{open ? 'Hide the full text' : `Show the full text (${size})`}</summary>
            <pre tabIndex={0}>{shown}</pre>
          </details>
        </>
      )}
    </div>
  );
}

/** A JSON object or array text, pretty-printed; null for any other text (kept exactly as it came). */
export function prettyJson(text: string): string | null {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return null;
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return null;
  }
}

/**
 * Opens the test runner on this call's endpoint and prompt with its inputs filled in. Inputs cut by the log cap are
 * no longer the inputs that were sent, so they are not offered.
 */
function RunAgain({ log, inputsCut }: { log: LogDetailData; inputsCut: boolean }) {
  if (inputsCut) {
    return <p className="run-again-blocked">Run again is not available: the inputs were cut by the log size limit.</p>;
  }
  const query = [
    log.promptId ? `prompt=${encodeURIComponent(log.promptId)}` : null,
    log.inputs !== null && log.inputs !== undefined ? `inputs=${encodeURIComponent(JSON.stringify(log.inputs))}` : null,
  ]
    .filter(Boolean)
    .join('&');
  return (
    <Link className="button primary" href={`/endpoints/${log.endpointId}/run${query ? `?${query}` : ''}`}>
      Run again
    </Link>
  );
}
