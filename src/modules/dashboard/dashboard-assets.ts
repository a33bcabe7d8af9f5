import * as fs from 'node:fs';
import * as path from 'node:path';

/** Where `npm run build:dashboard` writes the dashboard (index.html and hashed assets). */
export const DASHBOARD_DIR = path.join(packageRoot(__dirname), 'dashboard', 'dist');

/** The dashboard's URL prefix; every URL inside it is relative, so a proxy may mount the service under any path. */
export const DASHBOARD_PREFIX = '/dashboard/';

/**
 * The dashboard's pages run under a strict policy: scripts, styles and connections from this origin only (no inline
 * script or style), images also from data: and blob: URLs (a test run's image answers, an uploaded image's preview),
 * and no framing.
 */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers of every dashboard file: the policy, and caching (hashed assets for a year, the page revalidated). */
export function dashboardHeaders(filePath: string): Record<string, string> {
  const hashed = filePath.split(path.sep).includes('assets');
  return {
    'Content-Security-Policy': DASHBOARD_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'X-Frame-Options': 'DENY',
    'Cache-Control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
  };
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
