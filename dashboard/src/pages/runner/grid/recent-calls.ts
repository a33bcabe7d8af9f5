import { api, unwrap } from '../../../api/client';
import { type LoggedCall, RECENT_CALLS_SCANNED, recentInputsOf, usableSummary } from './recent-inputs';

/** Log rows per page read, the logs API's largest page. */
const PAGE_SIZE = 50;
/** Call details read at once. */
const DETAILS_AT_ONCE = 10;

/**
 * The inputs of up to `count` of the endpoint's latest calls through the execution API (source Api), newest first,
 * each distinct and none already in `existing`. The log list holds no inputs, so each call's detail is read, a few at
 * once, until enough are found or RECENT_CALLS_SCANNED calls were looked at. `scanned` says how many were.
 */
export async function recentCallInputs(
  endpointId: string,
  count: number,
  existing: Record<string, unknown>[],
): Promise<{ inputs: { inputs: Record<string, unknown>; logId: string }[]; scanned: number }> {
  const calls: LoggedCall[] = [];
  let scanned = 0;
  for (let page = 1; scanned < RECENT_CALLS_SCANNED; page++) {
    const { items } = await unwrap(
      api.GET('/admin/v1/logs', { params: { query: { endpointId, source: 'Api', page, pageSize: PAGE_SIZE } } }),
    );
    scanned += items.length;
    // A call whose inputs the log cut, or that the endpoint refused, is not worth reading.
    const worth = items.filter(usableSummary);
    for (let start = 0; start < worth.length; start += DETAILS_AT_ONCE) {
      const details = await Promise.all(
        worth
          .slice(start, start + DETAILS_AT_ONCE)
          .map((log) => unwrap(api.GET('/admin/v1/logs/{id}', { params: { path: { id: log.id } } }))),
      );
      calls.push(...details);
      const found = recentInputsOf(calls, count, existing);
      if (found.length >= count) return { inputs: found, scanned };
    }
    if (items.length < PAGE_SIZE) break;
  }
  return { inputs: recentInputsOf(calls, count, existing), scanned };
}
