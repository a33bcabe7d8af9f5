import type { Schemas } from '../../api/client';

type Endpoint = Pick<Schemas['EndpointResponse'], 'trafficSplit' | 'defaultPromptId'>;

/**
 * The share, in percent, of the endpoint's calls without `?prompt=` that a Live prompt answers: its weight when the
 * endpoint splits its traffic (0 when the split leaves it out), else 100 for the default prompt and 0 for the others.
 */
export function liveShareOf(endpoint: Endpoint, promptId: string): number {
  const id = promptId.toLowerCase();
  if (endpoint.trafficSplit)
    return endpoint.trafficSplit.variants.find((variant) => variant.promptId.toLowerCase() === id)?.weight ?? 0;
  return endpoint.defaultPromptId?.toLowerCase() === id ? 100 : 0;
}

/** What saving a new version of a Live prompt does: a Live prompt serves its latest version, at once. */
export function liveSaveWarning(share: number, slug: string): string {
  const pinned = `every call that pins it with ?prompt=${slug}`;
  return share > 0
    ? `This prompt is Live: as soon as you save, the new version answers ${share} % of the endpoint's traffic, and ${pinned}.`
    : `This prompt is Live: as soon as you save, the new version answers ${pinned}.`;
}
