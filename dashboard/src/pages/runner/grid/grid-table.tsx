import { Link } from 'wouter';
import { Button } from '../../../ui/controls';
import { formatCost, formatMs } from '../../../ui/format';
import { keptDraftOf } from '../../prompts/kept-draft';
import { generatedImagesOf, type Prompt } from '../test-run';
import {
  cellKey,
  type Cells,
  type CellState,
  columnTitle,
  type GridColumn,
  type GridRow,
  inputLines,
} from './grid-model';

/**
 * The grid as a table: a column per prompt, a row per set of inputs (its heading shows them), and in each cell the run
 * of that row with that column: its state, then the output, cost, latency and log row.
 */
export function GridTable({
  rows,
  columns,
  cells,
  prompts,
  removeBlock,
  onRemoveRow,
  onRemoveColumn,
}: {
  rows: GridRow[];
  columns: GridColumn[];
  cells: Cells;
  prompts: Prompt[];
  /** Why rows and columns cannot be removed now (a run is going on), or null. */
  removeBlock: string | null;
  onRemoveRow: (row: GridRow) => void;
  onRemoveColumn: (column: GridColumn) => void;
}) {
  const titles = new Map(columns.map((column) => [column.id, columnTitle(column, prompts)]));
  return (
    <div className="grid-table-box">
      <table className="grid-table">
        <caption className="visually-hidden">
          Each row's inputs run with each column's prompt: the cells hold the answers.
        </caption>
        <thead>
          <tr>
            <th scope="col" className="grid-inputs-heading">
              Inputs
            </th>
            {columns.map((column) => (
              <th scope="col" key={column.id}>
                <span className="grid-column-title">{titles.get(column.id)}</span>
                <small className="muted grid-column-note">{columnNote(column, prompts)}</small>
                <Button className="grid-remove" blocked={removeBlock} onClick={() => onRemoveColumn(column)}>
                  Remove<span className="visually-hidden"> the column {titles.get(column.id)}</span>
                </Button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={row.id}>
              <th scope="row">
                <span className="grid-row-title">Row {index + 1}</span>
                <RowInputs row={row} />
                <Button className="grid-remove" blocked={removeBlock} onClick={() => onRemoveRow(row)}>
                  Remove<span className="visually-hidden"> row {index + 1}</span>
                </Button>
              </th>
              {columns.map((column) => (
                <GridCell
                  key={column.id}
                  cell={cells[cellKey(row.id, column.id)]}
                  where={`row ${index + 1}, ${titles.get(column.id)}`}
                />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** What a column runs, under its title. */
function columnNote(column: GridColumn, prompts: Prompt[]): string {
  const prompt = prompts.find((one) => one.id === column.promptId);
  switch (column.kind) {
    case 'draft': {
      const kept = keptDraftOf(column.promptId);
      return kept
        ? `Unsaved changes kept in this browser, made on version ${kept.baseVersion}`
        : 'No unsaved changes kept: the saved text runs';
    }
    case 'version':
      return prompt && column.version === prompt.currentVersion ? 'Saved version, the current one' : 'Saved version';
    case 'prompt':
      return prompt ? `${prompt.status}${prompt.isDefault ? ', the default' : ''}` : '';
  }
}

function RowInputs({ row }: { row: GridRow }) {
  const lines = inputLines(row.inputs);
  return (
    <>
      {lines.length === 0 ? (
        <span className="muted grid-inputs">No inputs</span>
      ) : (
        <dl className="grid-inputs">
          {lines.map((line) => (
            <div key={line.name}>
              <dt>{line.name}</dt>
              <dd>{line.value}</dd>
            </div>
          ))}
        </dl>
      )}
      <small className="muted grid-row-source">
        {row.source.kind === 'typed' ? (
          'Typed'
        ) : row.source.kind === 'dataset' ? (
          `From the dataset ${row.source.datasetName}`
        ) : (
          <>
            From <Link href={`/logs/${row.source.logId}`}>a call</Link>
          </>
        )}
      </small>
    </>
  );
}

const STATES: Record<CellState['status'] | 'idle', string> = {
  idle: 'Not run',
  pending: 'Waiting',
  running: 'Running…',
  answered: 'Answered',
  failed: 'Failed',
};

/** One cell: its state, then what the run answered (while it streams, the answer so far) or why it failed. */
function GridCell({ cell, where }: { cell: CellState | undefined; where: string }) {
  const status = cell?.status ?? 'idle';
  return (
    <td className={`grid-cell ${status}`} aria-busy={status === 'running' || status === 'pending'}>
      <span className={`badge grid-state ${status}`}>{STATES[status]}</span>
      {cell?.status === 'running' && cell.piece && (
        <Output value={'text' in cell.piece ? cell.piece.text : cell.piece.output} />
      )}
      {cell?.status === 'answered' && (
        <>
          <Output value={cell.output} />
          <dl className="grid-facts">
            <div>
              <dt>Cost</dt>
              <dd>{formatCost(cell.costUsd)}</dd>
            </div>
            <div>
              <dt>Latency</dt>
              <dd>{formatMs(cell.latencyMs)}</dd>
            </div>
          </dl>
          <LogLink logId={cell.logId} where={where} />
        </>
      )}
      {cell?.status === 'failed' && (
        <>
          <ul className="grid-failure">
            {cell.messages.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
          {cell.logId && <LogLink logId={cell.logId} where={where} />}
        </>
      )}
    </td>
  );
}

function LogLink({ logId, where }: { logId: string; where: string }) {
  return (
    <Link className="grid-log" href={`/logs/${logId}`}>
      Log row<span className="visually-hidden"> of {where}</span>
    </Link>
  );
}

/** An output: an image endpoint's images, a text as it is, any other JSON pretty-printed. */
function Output({ value }: { value: unknown }) {
  const images = generatedImagesOf(value);
  if (images) {
    return (
      <div className="grid-images">
        {images.length === 0 && <span className="muted">No image was generated.</span>}
        {images.map((image, index) => (
          <img key={index} src={image.src} alt={image.revisedPrompt ?? `Generated image ${index + 1}`} />
        ))}
      </div>
    );
  }
  return (
    <pre className="grid-output" tabIndex={0}>
      {typeof value === 'string' ? value : JSON.stringify(value, null, 2)}
    </pre>
  );
}
