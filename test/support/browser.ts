import * as fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import axe from 'axe-core';
import { type Browser, chromium, type Page } from 'playwright-core';
import { fakeProviderEnv, FakeLlmServer } from './fake-llm-server';
import { type SeededTenant, seedTenant } from './seed';
import { createTestApp, type TestApp } from './test-app';

/** Debian's Chromium (`apt-get install -y chromium`); CHROMIUM_PATH points elsewhere. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOTS = path.join(__dirname, '..', '..', 'docs', 'images');

/**
 * The real service on a real (embedded) database, listening on a free port, with its providers pointed at the fake
 * LLM server, a seeded tenant, and a headless Chromium page. The dashboard is the built one (npm run build).
 */
export interface DashboardHarness {
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  t: TestApp;
  fake: FakeLlmServer;
  tenant: SeededTenant;
  browser: Browser;
  page: Page;
  /** Every Content-Security-Policy violation and page error seen so far. */
  problems: string[];
  close(): Promise<void>;
}

export async function startDashboard(): Promise<DashboardHarness> {
  const fake = await FakeLlmServer.start();
  const t = await createTestApp({}, fakeProviderEnv(fake));
  await t.app.listen(0, '127.0.0.1');
  const { port } = t.app.getHttpServer().address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  const tenant = await seedTenant(t.app);
  const browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const problems: string[] = [];
  watchProblems(page, problems);
  return {
    baseUrl,
    t,
    fake,
    tenant,
    browser,
    page,
    problems,
    close: async () => {
      await browser.close().catch(() => undefined);
      await t.close();
      await fake.close();
    },
  };
}

export function launchChromium(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM))
    throw new Error(`Chromium is missing at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    // The machine has no network: no background services, no sandbox (CI runs as root).
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
}

/** Records CSP violations (the page runs under the service's policy) and uncaught page errors. */
export function watchProblems(page: Page, problems: string[]): void {
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text()))
      problems.push(`CSP: ${message.text()}`);
  });
}

/** Opens the dashboard and signs in with `key`; resolves once the signed-in layout shows. */
export async function signIn(page: Page, baseUrl: string, key: string, route = '/endpoints'): Promise<void> {
  await page.goto(`${baseUrl}/dashboard/#${route}`);
  await page.getByLabel('Admin key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

/** Goes to a dashboard route of the signed-in page (the hash part). */
export async function goTo(page: Page, route: string): Promise<void> {
  await page.evaluate((target) => (location.hash = target), `#${route}`);
}

/**
 * axe-core on the page as it is: its serious and critical violations (with `every`, all of them, whatever their
 * impact). Returns the violations' summary for the message.
 */
export async function accessibilityViolations(page: Page, { every = false } = {}): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern.
  await page.evaluate(axe.source);
  const results = await page.evaluate(() =>
    (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] }),
  );
  return results.violations
    .filter((violation) => every || violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes
          .map((node) => node.target.join(' '))
          .slice(0, 5)
          .join(', ')}`,
    );
}

/**
 * Tabs through the page and returns the enabled, visible controls that keyboard focus never reached, and the focused
 * elements that showed no focus indicator (outline or box-shadow).
 */
export async function keyboardProblems(
  page: Page,
  maxTabs = 250,
): Promise<{ unreachable: string[]; noVisibleFocus: string[] }> {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  const noVisibleFocus = new Set<string>();
  const reached = new Set<string>();
  let first: string | undefined;
  for (let i = 0; i < maxTabs; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      if (!element || element === document.body) return null;
      const id = element.dataset.kbId ?? (element.dataset.kbId = String(Math.random()).slice(2));
      const style = getComputedStyle(element);
      const visible =
        (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
      return {
        id,
        visible,
        label: `${element.tagName.toLowerCase()} "${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40)}"`,
      };
    });
    if (!focused) continue;
    if (focused.id === first) break;
    first ??= focused.id;
    reached.add(focused.id);
    if (!focused.visible) noVisibleFocus.add(focused.label);
  }
  const unreachable = await page.evaluate(
    (ids) => {
      const seen = new Set(ids);
      // A radio group is one tab stop (the arrow keys move within it): reaching one of its radios reaches the group.
      const radioGroups = new Set(
        [...document.querySelectorAll<HTMLInputElement>('input[type=radio][name]')]
          .filter((radio) => seen.has(radio.dataset.kbId ?? ''))
          .map((radio) => radio.name),
      );
      const inReachedGroup = (element: HTMLElement) =>
        element instanceof HTMLInputElement && element.type === 'radio' && radioGroups.has(element.name);
      const controls = document.querySelectorAll<HTMLElement>(
        'a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"]), [contenteditable="true"]',
      );
      return [...controls]
        .filter(
          (element) =>
            element.offsetParent !== null && !element.closest('dialog:not([open])') && !element.closest('[inert]'),
        )
        .filter((element) => !seen.has(element.dataset.kbId ?? '') && !inReachedGroup(element))
        .map(
          (element) =>
            `${element.tagName.toLowerCase()} "${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40)}"`,
        );
    },
    [...reached],
  );
  return { unreachable, noVisibleFocus: [...noVisibleFocus] };
}

/** A screenshot of the page for the README (docs/images/<name>.png). */
export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}
