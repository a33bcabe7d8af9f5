import * as fs from 'node:fs';
import * as path from 'node:path';

/** Where `npm run build:dashboard` writes the dashboard (index.html and hashed assets). */
export const DASHBOARD_DIR = path.join(packageRoot(__dirname), 'dashboard', 'dist');

/** The dashboard's URL prefix; every URL inside it is relative, so a proxy may mount the service under any path. */
export const DASHBOARD_PREFIX = '/dashboard/';

/**
 * Caching of every dashboard file: hashed assets for a year, the page revalidated. Its security headers (a strict
 * Content-Security-Policy among them) are those of every answer, set by common/http/security-headers.ts.
 */
export function dashboardHeaders(filePath: string): Record<string, string> {
  const hashed = filePath.split(path.sep).includes('assets');
  return { 'Cache-Control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache' };
}

/** Whether the dashboard has been built (`npm start` and `npm test` build it). */
export function dashboardBuilt(): boolean {
  return fs.existsSync(path.join(DASHBOARD_DIR, 'index.html'));
}

function packageRoot(from: string): string {
  let dir = from;
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) return from;
    dir = parent;
  }
  return dir;
}
