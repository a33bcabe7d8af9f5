import { ExecutionLogsService } from '../../src/modules/logs/execution-logs.service';
import { eventually } from './eventually';
import { auth } from './seed';
import type { TestApp } from './test-app';

/** Writes what the log queue holds now, then lists the rows `query` selects (`/admin/v1/logs?…`, up to 50). */
export async function logRows(t: TestApp, adminKey: string, query: string): Promise<any[]> {
  await t.app.get(ExecutionLogsService).flush();
  const res = await t.http.get(`/admin/v1/logs?pageSize=50&${query}`).set(auth(adminKey));
  if (res.status !== 200) throw new Error(`log list: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.items;
}

/** The rows of an endpoint once there are at least `count` (the rows of an execution are written after it answers). */
export function logsOf(t: TestApp, adminKey: string, endpointId: string, count = 1): Promise<any[]> {
  return eventually(async () => {
    const rows = await logRows(t, adminKey, `endpointId=${endpointId}`);
    return rows.length >= count && rows;
  }, `${count} log rows of endpoint ${endpointId}`);
}

/**
 * The row of one request, as the list shows it (`summary`) and in full (`detail`); fails when the request has more
 * than one row.
 */
export async function logOfRequest(
  t: TestApp,
  adminKey: string,
  requestId: string,
): Promise<{ summary: any; detail: any }> {
  const rows = await eventually(async () => {
    const found = await logRows(t, adminKey, `requestId=${requestId}`);
    return found.length > 0 && found;
  }, `the log row of request ${requestId}`);
  expect(rows).toHaveLength(1);
  const detail = await t.http.get(`/admin/v1/logs/${rows[0].id}`).set(auth(adminKey));
  expect(detail.status).toBe(200);
  return { summary: rows[0], detail: detail.body.data };
}

/** The full row of one request (see logOfRequest). */
export async function logOf(t: TestApp, adminKey: string, requestId: string): Promise<any> {
  return (await logOfRequest(t, adminKey, requestId)).detail;
}
