/** How the stats pages write rates, counts and amounts. */

export const formatShare = (rate: number) => `${(rate * 100).toFixed(rate * 100 < 10 && rate > 0 ? 1 : 0)} %`;
export const formatRate = (rate: number | null) => (rate === null ? '—' : formatShare(rate));
export const formatCount = (value: number) => (Number.isInteger(value) ? value.toLocaleString() : value.toFixed(1));
export const formatUsd = (value: number) =>
  value === 0 ? '$0' : value < 0.01 ? `$${value.toPrecision(2)}` : `$${value.toFixed(2)}`;
