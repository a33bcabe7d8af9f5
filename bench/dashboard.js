'use strict';
/**
 * Dashboard benchmark (`npm run bench:dashboard`): the size of what the first page loads, and the time from
 * navigation to the first rendered endpoint list in Debian's Chromium, cold (empty browser cache) and warm.
 * Starts the built service on a temporary embedded database with 25 endpoints, signs in by putting the admin key in
 * the tab's sessionStorage before the page loads, and takes the median of several page loads.
 *
 * Options: --runs N (7)
 */
const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const { chromium } = require('playwright-core');

const ROOT = path.join(__dirname, '..');
const DIST = path.join(ROOT, 'dashboard', 'dist');
const RUNS = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 7;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ADMIN_KEY = 'epa_' + crypto.randomBytes(24).toString('hex');
const LAST_ENDPOINT = 'Bench endpoint 25';

async function main() {
  const sizes = bundleSizes();
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'promptgate-bench-dashboard-'));
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    INITIAL_ADMIN_KEY: ADMIN_KEY,
    LOG_LEVEL: 'error',
    SHUTDOWN_DRAIN_MS: '0',
  };
  for (const name of ['DATABASE_URL', 'REDIS_URL']) delete env[name];
  const service = spawn(process.execPath, [path.join(ROOT, 'dist', 'src', 'main.js')], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  let browser;
  try {
    await waitFor(`${base}/health/ready`);
    for (let i = 1; i <= 25; i++) {
      const response = await fetch(`${base}/admin/v1/endpoints`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': ADMIN_KEY },
        body: JSON.stringify({
          name: `Bench endpoint ${i}`,
          path: `/api/v1/bench-${i}`,
          category: i % 2 ? 'support' : 'sales',
        }),
      });
      if (response.status !== 201)
        throw new Error(`creating an endpoint answered ${response.status}: ${await response.text()}`);
    }
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    const cold = [];
    const warm = [];
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      await page.addInitScript(
        ([key, marker]) => {
          sessionStorage.setItem('promptgate.adminKey', key);
          new MutationObserver((_, observer) => {
            if (document.body?.textContent?.includes(marker)) {
              window.__firstList = performance.now();
              observer.disconnect();
            }
          }).observe(document, { childList: true, subtree: true, characterData: true });
        },
        [ADMIN_KEY, LAST_ENDPOINT],
      );
      cold.push(await timeToList(page, `${base}/dashboard/#/endpoints`));
      warm.push(await timeToList(page, `${base}/dashboard/#/endpoints`, true));
      await context.close();
    }
    const report = {
      initialJsGzipKB: kb(sizes.initialJs),
      initialCssGzipKB: kb(sizes.initialCss),
      allJsGzipKB: kb(sizes.allJs),
      largestLazyChunk: sizes.largestLazy,
      firstListColdMs: median(cold),
      firstListWarmMs: median(warm),
      runs: RUNS,
      chromium: await browser.version(),
    };
    process.stdout.write(JSON.stringify(report, null, 2) + '\n');
  } finally {
    await browser?.close();
    service.kill('SIGTERM');
    await new Promise((resolve) => service.once('exit', resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function timeToList(page, url, reload = false) {
  if (reload) await page.reload();
  else await page.goto(url);
  await page.waitForFunction(() => window.__firstList !== undefined, undefined, { timeout: 30_000 });
  return page.evaluate(() => window.__firstList);
}

/** Gzipped sizes: what index.html loads itself (scripts, module preloads, stylesheets), every script, the largest lazy one. */
function bundleSizes() {
  if (!fs.existsSync(path.join(DIST, 'index.html'))) throw new Error('The dashboard is not built: run npm run build');
  const html = fs.readFileSync(path.join(DIST, 'index.html'), 'utf8');
  const initial = new Set([...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+)"/g)].map((match) => match[1]));
  const gz = (file) => zlib.gzipSync(fs.readFileSync(path.join(DIST, file))).length;
  const assets = fs.readdirSync(path.join(DIST, 'assets')).map((name) => `assets/${name}`);
  const scripts = assets.filter((file) => file.endsWith('.js'));
  const lazy = scripts.filter((file) => !initial.has(file)).map((file) => ({ file, gzipKB: kb(gz(file)) }));
  return {
    initialJs: [...initial].filter((file) => file.endsWith('.js')).reduce((sum, file) => sum + gz(file), 0),
    initialCss: [...initial].filter((file) => file.endsWith('.css')).reduce((sum, file) => sum + gz(file), 0),
    allJs: scripts.reduce((sum, file) => sum + gz(file), 0),
    largestLazy: lazy.sort((a, b) => b.gzipKB - a.gzipKB)[0] ?? null,
  };
}

const kb = (bytes) => Math.round((bytes / 1024) * 10) / 10;
const median = (values) => Math.round([...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]);

async function waitFor(url) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer`);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exitCode = 1;
});
