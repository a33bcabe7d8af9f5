import { Field } from '../../../ui/controls';
import { describeQuality, type GroupScore, type ScoreConfig, VERDICT_LABEL } from './rules';
import './split-quality.css';

/** Chooses the score by which the split's prompts are compared; none for no quality column. */
export function QualityPicker({
  choices,
  value,
  onChange,
}: {
  choices: ScoreConfig[];
  value: string;
  onChange: (name: string) => void;
}) {
  return (
    <div className="split-quality-picker">
      <Field
        label="Compare quality by score"
        hint="Each prompt's share of true (boolean scores) or mean (numeric), with its 95 % interval"
      >
        {(id) => (
          <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
            <option value="">No quality column</option>
            {choices.map((choice) => (
              <option key={choice.id} value={choice.name}>
                {choice.name}
              </option>
            ))}
          </select>
        )}
      </Field>
    </div>
  );
}

/** One prompt's quality: its figure and interval, how many scores it rests on, and the verdict against the best other. */
export function QualityCell({ score, config }: { score: GroupScore | undefined; config: ScoreConfig }) {
  const quality = describeQuality(score, config.dataType);
  return (
    <td className="split-quality">
      <span className="quality-figure">{quality.figure}</span>
      {quality.interval && <span className="muted"> (95 %: {quality.interval})</span>}
      <span className="muted quality-count"> · {quality.count}</span>
      {quality.verdict && (
        <>
          {' '}
          <span className={`badge verdict ${quality.verdict}`} title={quality.why ?? undefined}>
            {VERDICT_LABEL[quality.verdict]}
          </span>
          {quality.why && <span className="visually-hidden"> ({quality.why})</span>}
        </>
      )}
    </td>
  );
}
