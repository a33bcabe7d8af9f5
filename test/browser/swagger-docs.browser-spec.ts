import { useDashboard, watchProblems } from './support/dashboard';

/**
 * The admin API's Swagger UI at /docs renders under its Content-Security-Policy: its scripts run, its inline styles
 * apply, and the browser reports no violation or page error.
 */
describe('Swagger UI at /docs under its Content-Security-Policy', () => {
  // The test watches a page of its own, so the harness's page is not checked.
  const h = useDashboard({ watchPage: false });

  it('renders the admin API with its operations, without a policy violation', async () => {
    const page = await h.browser.newPage();
    const problems: string[] = [];
    watchProblems(page, problems);
    // Violations are also reported as events on the document: count them from the page itself.
    await page.addInitScript(() => {
      (window as unknown as { violations: string[] }).violations = [];
      document.addEventListener('securitypolicyviolation', (event) =>
        (window as unknown as { violations: string[] }).violations.push(
          `${event.violatedDirective}: ${event.blockedURI}`,
        ),
      );
    });
    const response = await page.goto(`${h.baseUrl}/docs`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(response?.headers()['x-frame-options']).toBe('DENY');
    await page
      .getByRole('heading', { name: /Promptgate/ })
      .first()
      .waitFor();
    // An operation of the document is rendered, and Swagger UI's styles applied (its operation blocks are laid out).
    const operation = page.locator('.opblock').first();
    await operation.waitFor();
    expect(await page.locator('.opblock').count()).toBeGreaterThan(10);
    await operation.locator('.opblock-summary').click();
    await page.locator('.opblock-body').first().waitFor();
    expect(await operation.evaluate((element) => getComputedStyle(element).borderStyle)).toBe('solid');
    expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations)).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
