import { type FormEvent, useId, useState } from 'react';
import { Link } from 'wouter';
import { api, unwrap } from '../../api/client';
import { useWriteBlock } from '../../session';
import { Button, Field, Problems } from '../../ui/controls';
import { formatDate } from '../../ui/format';
import { useLoad } from '../../ui/use-load';
import { useAction } from '../../ui/use-action';
import {
  annotationChoices,
  EMPTY_VALUE,
  formatScoreValue,
  type LogScore,
  MAX_COMMENT_LENGTH,
  type ScoreConfig,
  scoreValueOf,
  SOURCE_LABEL,
} from './rules';
import './scores.css';

/** An execution's scores, and the form with which a ReadWrite key adds one (or replaces one of the same name). */
export function LogScores({ logId, scores, onScored }: { logId: string; scores: LogScore[]; onScored: () => void }) {
  return (
    <>
      {scores.length === 0 ? (
        <p className="muted">No scores yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="log-scores">
            <caption className="visually-hidden">Scores of this call, by name</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Value</th>
                <th scope="col">Source</th>
                <th scope="col">Comment</th>
                <th scope="col">Recorded</th>
              </tr>
            </thead>
            <tbody>
              {scores.map((score) => (
                <tr key={score.name} data-score={score.name}>
                  <th scope="row">
                    <code>{score.name}</code>
                  </th>
                  <td>{formatScoreValue(score.value)}</td>
                  <td>{SOURCE_LABEL[score.source]}</td>
                  <td className="comment">{score.comment ?? <span className="muted">—</span>}</td>
                  <td>
                    <time dateTime={score.createdAt}>{formatDate(score.createdAt)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <AnnotateForm logId={logId} scores={scores} onScored={onScored} />
    </>
  );
}

function AnnotateForm({ logId, scores, onScored }: { logId: string; scores: LogScore[]; onScored: () => void }) {
  const blocked = useWriteBlock();
  const configs = useLoad(() => unwrap(api.GET('/admin/v1/score-configs')), []);
  const [name, setName] = useState('');
  const [value, setValue] = useState(EMPTY_VALUE);
  const [comment, setComment] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const adding = useAction();
  const [done, setDone] = useState<string | null>(null);
  const choices = annotationChoices(configs.data ?? [], scores);
  const config = choices.find((choice) => choice.config.name === name)?.config;
  const replacing = scores.some((score) => score.name === name);

  async function add(event: FormEvent) {
    event.preventDefault();
    if (!config) return;
    const parsed = scoreValueOf(config, value);
    if ('problem' in parsed) return setProblem(parsed.problem);
    setDone(null);
    const saved = await adding.run(() =>
      unwrap(
        api.POST('/admin/v1/logs/{id}/scores', {
          params: { path: { id: logId } },
          body: { name: config.name, value: parsed.value, comment: comment.trim() === '' ? null : comment },
        }),
      ),
    );
    if (saved === undefined) return;
    setDone(`${replacing ? 'Replaced' : 'Added'} the score ${config.name}: ${formatScoreValue(parsed.value)}.`);
    setValue(EMPTY_VALUE);
    setComment('');
    onScored();
  }

  if (configs.data && configs.data.length === 0) {
    return (
      <p className="muted">
        No score configs are declared: <Link href="/settings/score-configs">declare one</Link> to score calls.
      </p>
    );
  }
  return (
    <form className="annotate" aria-label="Add a score" onSubmit={add} noValidate>
      <h3>Add a score</h3>
      <Problems error={configs.error} />
      <div className="inline">
        <Field label="Score">
          {(id) => (
            <select
              id={id}
              value={name}
              onChange={(event) => {
                setName(event.target.value);
                setValue(EMPTY_VALUE);
                setProblem(null);
              }}
            >
              <option value="">Choose a score</option>
              {choices.map(({ config: choice, scored }) => (
                <option key={choice.id} value={choice.name}>
                  {choice.name}
                  {scored ? ' (scored: a new value replaces it)' : ''}
                </option>
              ))}
            </select>
          )}
        </Field>
        {config && (
          <ValueInput
            config={config}
            value={value}
            problem={problem}
            onChange={(next) => {
              setValue(next);
              setProblem(null);
            }}
          />
        )}
      </div>
      {config && (
        <Field label="Comment" hint={`Optional, at most ${MAX_COMMENT_LENGTH.toLocaleString()} characters`}>
          {(id) => (
            <textarea
              id={id}
              rows={2}
              maxLength={MAX_COMMENT_LENGTH}
              value={comment}
              onChange={(event) => setComment(event.target.value)}
            />
          )}
        </Field>
      )}
      <Problems error={adding.error} />
      <p role="status" className={done ? 'notice' : 'visually-hidden'}>
        {done}
      </p>
      <Button type="submit" kind="primary" blocked={blocked} disabled={!config || value === EMPTY_VALUE || adding.busy}>
        {replacing ? 'Replace score' : 'Add score'}
      </Button>
    </form>
  );
}

/** The input that fits the config's type: true or false, a number within its bounds, or one of its categories. */
function ValueInput({
  config,
  value,
  problem,
  onChange,
}: {
  config: ScoreConfig;
  value: string;
  problem: string | null;
  onChange: (value: string) => void;
}) {
  const errorId = useId();
  if (config.dataType === 'boolean') {
    return (
      <fieldset className="segmented score-boolean" aria-describedby={problem ? errorId : undefined}>
        <legend>Value</legend>
        {['true', 'false'].map((option) => (
          <label key={option} className="checkbox">
            <input
              type="radio"
              name={`score-${config.name}`}
              value={option}
              checked={value === option}
              onChange={() => onChange(option)}
            />
            {option}
          </label>
        ))}
        {problem && (
          <small id={errorId} className="field-error" role="alert">
            {problem}
          </small>
        )}
      </fieldset>
    );
  }
  if (config.dataType === 'numeric') {
    return (
      <Field label="Value" hint={`From ${config.minimum} to ${config.maximum}`} error={problem}>
        {(id) => (
          <input
            id={id}
            type="number"
            step="any"
            min={config.minimum ?? undefined}
            max={config.maximum ?? undefined}
            value={value}
            onChange={(event) => onChange(event.target.value)}
          />
        )}
      </Field>
    );
  }
  return (
    <Field label="Value" error={problem}>
      {(id) => (
        <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
          <option value="">Choose a category</option>
          {(config.categories ?? []).map((category) => (
            <option key={category} value={category}>
              {category}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
