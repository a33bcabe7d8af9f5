import { formatNumber } from '../../ui/format';
import type { Dataset } from './rules';

/** A choice of datasets, each shown by its name and how many items it holds. */
export function DatasetSelect({
  id,
  datasets,
  value,
  onChange,
}: {
  id: string;
  datasets: readonly Dataset[];
  value: string;
  onChange: (datasetId: string) => void;
}) {
  return (
    <select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
      {datasets.map((dataset) => (
        <option key={dataset.id} value={dataset.id}>
          {dataset.name} ({formatNumber(dataset.itemCount)} {dataset.itemCount === 1 ? 'item' : 'items'})
        </option>
      ))}
    </select>
  );
}
