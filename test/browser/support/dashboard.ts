import type { Locator, Page } from 'playwright-core';
import {
  accessibilityViolations,
  type DashboardHarness,
  goTo,
  keyboardProblems,
  screenshot,
  signIn,
  startDashboard,
  watchProblems,
} from '../../support/browser';
import { createEndpoint, createPrompt, type FieldSpec, type PromptSpec } from '../../support/endpoint-fixtures';
import { auth } from '../../support/seed';

export { accessibilityViolations, goTo, keyboardProblems, screenshot, signIn, watchProblems };

/** What a ReadOnly key is told beside every write it may not make. */
export const READ_ONLY_REASON = 'Your key is ReadOnly: it can look at everything but change nothing.';

/** The harness of one browser spec file, with the admin API fixtures and pages bound to it. */
export interface Dashboard extends DashboardHarness {
  /** The headers of the seeded tenant's admin key. */
  admin(): Record<string, string>;
  /** Signs `h.page` in with `key`, on `route`. */
  signIn(key: string, route?: string): Promise<void>;
  /** Creates an endpoint with its fields through the admin API, with the tenant's admin key. */
  createEndpoint(options?: {
    path?: string;
    inputs?: FieldSpec[];
    outputs?: FieldSpec[];
    [setting: string]: unknown;
  }): Promise<{ id: string; path: string }>;
  /** Creates a prompt of the endpoint (by default Live and the endpoint's default). */
  createPrompt(
    endpointId: string,
    spec: PromptSpec,
    state?: 'Draft' | 'Live' | 'default',
  ): Promise<{ id: string; name: string; slug: string }>;
  /**
   * Runs `use` on a page of a new browser context (a tab of its own, whose CSP violations and page errors count as
   * the harness's), closed afterwards.
   */
  withPage<T>(use: (page: Page) => Promise<T>, options?: { clipboard?: boolean }): Promise<T>;
}

/**
 * Starts the service and the browser before the tests of the file (then runs `setUp`), closes them after, and, unless
 * `watchPage` is false, checks after each test that the page saw no CSP violation or page error.
 */
export function useDashboard(
  options: { setUp?: (h: Dashboard) => Promise<void>; watchPage?: boolean } = {},
): Dashboard {
  const bound: Omit<Dashboard, keyof DashboardHarness> = {
    admin: () => auth(h.tenant.admin),
    signIn: (key, route) => signIn(h.page, h.baseUrl, key, route),
    createEndpoint: (settings) => createEndpoint(h.t, h.tenant.admin, settings),
    createPrompt: (endpointId, spec, state) => createPrompt(h.t, h.tenant.admin, endpointId, spec, state),
    async withPage(use, { clipboard = false } = {}) {
      const context = await h.browser.newContext({ viewport: { width: 1280, height: 800 } });
      try {
        if (clipboard) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.baseUrl });
        const page = await context.newPage();
        watchProblems(page, h.problems);
        return await use(page);
      } finally {
        await context.close();
      }
    },
  };
  // Filled in by beforeAll: the tests read it only once it has run.
  const h = bound as Dashboard;

  beforeAll(async () => {
    Object.assign(h, await startDashboard());
    await options.setUp?.(h);
  });

  afterAll(async () => {
    await (h.close as DashboardHarness['close'] | undefined)?.();
  });

  if (options.watchPage !== false) {
    afterEach(() => {
      expect(h.problems).toEqual([]);
    });
  }
  return h;
}

/** No serious or critical axe-core violation; with `keyboard`, every enabled control reached by Tab, focus shown. */
export async function expectAccessible(page: Page, { keyboard = false } = {}): Promise<void> {
  expect(await accessibilityViolations(page)).toEqual([]);
  if (keyboard) expect(await keyboardProblems(page)).toEqual({ unreachable: [], noVisibleFocus: [] });
}

/** The control is disabled for a ReadOnly key and says why in its tooltip. */
export async function expectReadOnlyBlocked(control: Locator): Promise<void> {
  expect(await control.isDisabled()).toBe(true);
  expect(await control.getAttribute('title')).toBe(READ_ONLY_REASON);
}

/**
 * Opens the endpoint page's "Add input field" (or output) form and fills it in the order given: `Data type` is
 * selected, `true` checks a checkbox, any other value is typed. Returns the form, not yet sent.
 */
export async function openFieldForm(
  page: Page,
  kind: 'input' | 'output',
  values: Record<string, string | boolean>,
): Promise<Locator> {
  await page.getByRole('button', { name: `Add ${kind} field` }).click();
  const form = page.getByRole('form', { name: `New ${kind} field` });
  for (const [label, value] of Object.entries(values)) {
    if (label === 'Data type') await form.getByLabel(label).selectOption(String(value));
    else if (value === true) await form.getByLabel(label).check();
    else await form.getByLabel(label).fill(String(value));
  }
  return form;
}
