import { useState } from 'react';
import { useWriteBlock } from '../../session';
import { Button } from '../../ui/controls';
import type { Prompt } from '../runner/test-run';
import { RunForm } from './run-form';
import './eval-runs.css';

/**
 * "Run against the default" on a prompt's page: one of the endpoint's datasets run with this prompt and with the
 * endpoint's default prompt, compared item by item on the run's page.
 */
export function RunAgainstDefault({ prompt }: { prompt: Prompt }) {
  const blocked = useWriteBlock();
  const [open, setOpen] = useState(false);
  return (
    <div className="run-against-default">
      {!open ? (
        <Button
          blocked={blocked ?? (prompt.status === 'Archived' ? 'An archived prompt cannot be evaluated.' : null)}
          onClick={() => setOpen(true)}
        >
          Run against the default
        </Button>
      ) : (
        <RunForm endpointId={prompt.endpointId} prompt={prompt} onCancel={() => setOpen(false)} />
      )}
    </div>
  );
}
