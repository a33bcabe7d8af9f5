import { useState } from 'react';
import { CommandBlock, curlFor } from '../endpoints/endpoint-common';
import type { Endpoint, Prompt } from './test-run';

/**
 * The calls that ask the execution API what the run asked, with its inputs: plain, and streamed as server-sent events
 * (the answer printed as it arrives). A Live prompt is pinned by `?prompt=<slug>`; the API runs Live prompts only, so
 * a Draft's (or unsaved text's) call runs whatever the endpoint serves, and says so. An image endpoint cannot stream.
 */
export function RunSnippets({
  endpoint,
  prompt,
  unsaved,
  inputs,
}: {
  endpoint: Endpoint;
  prompt: Prompt | null;
  unsaved: boolean;
  inputs: Record<string, unknown>;
}) {
  const pinned = !unsaved && prompt?.status === 'Live';
  const path = pinned ? `${endpoint.path}?prompt=${encodeURIComponent(prompt.slug)}` : endpoint.path;
  const keyVariable = endpoint.visibility === 'Private' ? 'ADMIN_KEY' : 'ENDPOINT_KEY';
  const streams = !endpoint.outputFields.some((field) => field.dataType === 'image');
  const [open, setOpen] = useState(false);
  return (
    <details className="run-snippets" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>Call it from code</summary>
      {/* Rendered once opened: a closed disclosure's controls take no focus. */}
      {open && (
        <>
          <p className="muted">
            {pinned
              ? `With these inputs, pinned to ${prompt.name} (Live).`
              : `With these inputs. The API runs Live prompts only, so this call runs what the endpoint serves (its default or traffic split), not ${unsaved ? 'the unsaved changes' : 'this Draft'}.`}{' '}
            The key goes in <code>{keyVariable}</code>.
          </p>
          <CommandBlock label="curl" command={curlFor(path, inputs, keyVariable)} />
          {streams ? (
            <CommandBlock
              label="curl, streamed (server-sent events)"
              command={curlFor(path, inputs, keyVariable, { stream: true })}
            />
          ) : (
            <p className="muted">An image endpoint answers once its images are generated: it cannot stream.</p>
          )}
        </>
      )}
    </details>
  );
}
