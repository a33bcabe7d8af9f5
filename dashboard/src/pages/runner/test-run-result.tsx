import { useId } from 'react';
import { Link } from 'wouter';
import { JsonView } from '../../ui/controls';
import { formatCost, formatMs, formatNumber } from '../../ui/format';
import { AddRunToDataset } from '../datasets/add-to-dataset';
import { generatedImagesOf, type TestRun } from './test-run';

/**
 * A run's answer: the output (JSON pretty-printed, images drawn), the rendered prompt, tokens, cost, latency, log, and
 * a form that adds the run's `inputs` (and its output, as the expected one) to a dataset of the endpoint.
 */
export function TestRunResult({
  run,
  promptName,
  endpointId,
  inputs,
}: {
  run: TestRun;
  promptName: string | null;
  endpointId: string;
  inputs: Record<string, unknown>;
}) {
  const titleId = useId();
  const images = generatedImagesOf(run.output);
  return (
    <section className="test-run-result" aria-labelledby={titleId}>
      <h3 id={titleId}>{run.unsaved ? 'Result of the unsaved changes' : 'Result'}</h3>
      {run.unsaved && (
        <p className="notice" role="note">
          This answer came from unsaved text: the editor's changes as they stood, not a saved version. Its log row has
          no prompt.
        </p>
      )}
      <dl className="run-facts">
        <div>
          <dt>Prompt</dt>
          <dd>
            {run.unsaved
              ? `${promptName ? `${promptName}, ` : ''}unsaved changes`
              : `${promptName ?? run.promptId} v${run.promptVersion}`}
          </dd>
        </div>
        <div>
          <dt>Model</dt>
          <dd className="mono">{run.llmModel}</dd>
        </div>
        <div>
          <dt>Tokens in / out</dt>
          <dd>
            {formatNumber(run.usage.inputTokens)} / {formatNumber(run.usage.outputTokens)}
          </dd>
        </div>
        <div>
          <dt>Cost</dt>
          <dd>{formatCost(run.costUsd)}</dd>
        </div>
        <div>
          <dt>Latency</dt>
          <dd>{formatMs(run.latencyMs)}</dd>
        </div>
        <div>
          <dt>Log</dt>
          <dd>
            <Link href={`/logs/${run.logId}`}>View the log row</Link>
          </dd>
        </div>
      </dl>
      <h4>Output</h4>
      {images ? (
        <div className="generated-images">
          {images.length === 0 && <p className="muted">No image was generated.</p>}
          {images.map((image, index) => (
            <figure key={index}>
              <img src={image.src} alt={image.revisedPrompt ?? `Generated image ${index + 1}`} />
              {image.revisedPrompt && <figcaption>{image.revisedPrompt}</figcaption>}
            </figure>
          ))}
        </div>
      ) : (
        <JsonView value={run.output} label={typeof run.output === 'string' ? 'Text' : 'JSON'} />
      )}
      <h4>Rendered prompt</h4>
      <JsonView value={run.renderedPrompt} label="Sent to the model" />
      {(run.renderedMessages.length > 1 || run.renderedMessages.some((message) => message.role !== 'user')) && (
        <>
          <h4>Messages</h4>
          {run.renderedMessages.map((message, index) => (
            <JsonView key={index} value={message.content} label={`${index + 1}. ${message.role}`} />
          ))}
        </>
      )}
      <AddRunToDataset endpointId={endpointId} inputs={inputs} output={run.output} />
    </section>
  );
}
