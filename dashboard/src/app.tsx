import { lazy, type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
import { Link, Redirect, Route, Router, Switch, useLocation } from 'wouter';
import { ApiError } from './api/client';
import { useHashPath } from './router';
import { session, useSession } from './session';
import { fetchSessionInfo, SignIn } from './sign-in';
import { Button, Loading, Problems } from './ui/controls';
import { EndpointList } from './pages/endpoints/endpoint-list';

// The endpoint list is the first page everyone sees and ships in the first script; every other page loads on demand,
// so the editor (CodeMirror), the charts and the diff are fetched only by those who open them.
const EndpointDetail = lazy(() => import('./pages/endpoints/endpoint-detail'));
const EndpointCreate = lazy(() => import('./pages/endpoints/endpoint-create'));
const DeletedEndpoints = lazy(() => import('./pages/endpoints/deleted-endpoints'));
const PromptPage = lazy(() => import('./pages/prompts/prompt-page'));
const PromptCreate = lazy(() => import('./pages/prompts/prompt-create'));
const TestRunnerPage = lazy(() => import('./pages/runner/test-runner-page'));
const GridPage = lazy(() => import('./pages/runner/grid/grid-page'));
const VersionsPage = lazy(() => import('./pages/versions/versions-page'));
const VersionView = lazy(() => import('./pages/versions/version-view'));
const VersionCompare = lazy(() => import('./pages/versions/version-compare'));
const KeysPage = lazy(() => import('./pages/keys/keys-page'));
const LogsPage = lazy(() => import('./pages/logs/logs-page'));
const LogDetail = lazy(() => import('./pages/logs/log-detail'));
const StatsPage = lazy(() => import('./pages/stats/stats-page'));
const ModelsPage = lazy(() => import('./pages/models/models-page'));
const ScoreConfigsPage = lazy(() => import('./pages/score-configs/score-configs-page'));
const BudgetsPage = lazy(() => import('./pages/budgets/budgets-page'));
const DatasetPage = lazy(() => import('./pages/datasets/dataset-page'));
const RunPage = lazy(() => import('./pages/eval-runs/run-page'));

export function App() {
  return (
    <Router hook={useHashPath} searchHook={useHashPath.searchHook} hrefs={useHashPath.hrefs}>
      <Session>
        <Layout>
          <Suspense fallback={<Loading what="the page" />}>
            <Switch>
              <Route path="/endpoints" component={EndpointList} />
              <Route path="/endpoints/new" component={EndpointCreate} />
              <Route path="/endpoints/deleted" component={DeletedEndpoints} />
              <Route path="/endpoints/:id">
                <EndpointDetail />
              </Route>
              <Route path="/endpoints/:id/evaluate">
                <EndpointDetail view="evaluate" />
              </Route>
              <Route path="/endpoints/:id/datasets/:datasetId" component={DatasetPage} />
              <Route path="/endpoints/:id/eval-runs/:runId" component={RunPage} />
              <Route path="/endpoints/:id/prompts/new" component={PromptCreate} />
              <Route path="/endpoints/:id/prompts/:promptId" component={PromptPage} />
              <Route path="/endpoints/:id/prompts/:promptId/versions" component={VersionsPage} />
              <Route path="/endpoints/:id/prompts/:promptId/versions/compare" component={VersionCompare} />
              <Route path="/endpoints/:id/prompts/:promptId/versions/:versionNumber" component={VersionView} />
              <Route path="/endpoints/:id/run" component={TestRunnerPage} />
              <Route path="/endpoints/:id/run/compare" component={GridPage} />
              <Route path="/keys" component={KeysPage} />
              <Route path="/logs" component={LogsPage} />
              <Route path="/logs/:id" component={LogDetail} />
              <Route path="/stats" component={StatsPage} />
              <Route path="/models" component={ModelsPage} />
              <Route path="/settings/score-configs" component={ScoreConfigsPage} />
              <Route path="/budgets" component={BudgetsPage} />
              <Route path="/">
                <Redirect to="/endpoints" replace />
              </Route>
              <Route>
                <NotFound />
              </Route>
            </Switch>
          </Suspense>
        </Layout>
      </Session>
    </Router>
  );
}

/** Shows sign-in until a key is accepted; a key kept in this tab (a reload) is checked again first. */
function Session({ children }: { children: ReactNode }) {
  const { info } = useSession();
  const [checking, setChecking] = useState(() => session.key() !== null && info === null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    if (!checking) return;
    fetchSessionInfo().then(
      (restored) => {
        session.restore(restored);
        setChecking(false);
      },
      (failure) => {
        if (failure instanceof ApiError && (failure.status === 401 || failure.status === 403))
          session.expire('Sign in again.');
        else setError(failure);
        setChecking(false);
      },
    );
  }, [checking]);
  if (checking) return <Loading what="your session" />;
  if (error) return <Problems error={error} />;
  if (!info) return <SignIn />;
  return <>{children}</>;
}

const NAVIGATION = [
  { href: '/endpoints', label: 'Endpoints' },
  { href: '/keys', label: 'Keys' },
  { href: '/logs', label: 'Logs' },
  { href: '/stats', label: 'Stats' },
  { href: '/budgets', label: 'Budgets' },
  { href: '/models', label: 'Models' },
  { href: '/settings/score-configs', label: 'Score configs' },
];

function Layout({ children }: { children: ReactNode }) {
  const { info } = useSession();
  const [location] = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  // A narrow screen's menu closes once it took the user somewhere.
  useEffect(() => setMenuOpen(false), [location]);
  useHeadingFocusOnNavigation(location);
  useScrollingTablesFocusable();
  return (
    <div className="layout">
      <a
        className="skip-link"
        href="#main"
        onClick={(event) => (event.preventDefault(), document.getElementById('main')?.focus())}
      >
        Skip to content
      </a>
      <aside className="sidebar" data-open={menuOpen}>
        <div className="sidebar-top">
          <div className="brand">Promptgate</div>
          <button
            type="button"
            className="menu-button"
            aria-expanded={menuOpen}
            aria-controls="sidebar-menu"
            onClick={() => setMenuOpen((open) => !open)}
          >
            Menu
          </button>
        </div>
        <div id="sidebar-menu" className="sidebar-menu">
          <nav aria-label="Main">
            <ul>
              {NAVIGATION.map((item) => (
                <li key={item.href}>
                  <Link href={item.href} aria-current={location.startsWith(item.href) ? 'page' : undefined}>
                    {item.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <div className="who">
            <div className="tenant" title={`Tenant ${info?.tenantSlug}`}>
              {info?.tenantName}
            </div>
            <div className="key">
              {info?.keyName} {info?.readOnly && <span className="badge">ReadOnly</span>}
            </div>
            <Button onClick={() => session.signOut()}>Sign out</Button>
          </div>
        </div>
      </aside>
      <main id="main" className="content" tabIndex={-1}>
        {info?.readOnly && (
          <p className="readonly-banner" role="note">
            Signed in with a ReadOnly key: every page can be viewed, and changes are disabled.
          </p>
        )}
        {children}
      </main>
    </div>
  );
}

/** What keyboard focus can reach inside a table. */
const FOCUSABLE = 'a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])';

/**
 * A table that scrolls sideways (on a narrow screen) and holds nothing focusable becomes a keyboard stop, so its hidden
 * columns can be scrolled to without a mouse; it stops being one when it fits again. Kept up to date as pages change
 * and the window is resized.
 */
function useScrollingTablesFocusable() {
  useEffect(() => {
    const main = document.getElementById('main');
    if (!main) return;
    let frame = 0;
    const update = () => {
      frame = 0;
      for (const table of main.querySelectorAll<HTMLTableElement>('table')) {
        const scrolls = table.scrollWidth > table.clientWidth + 1 && !table.querySelector(FOCUSABLE);
        if (scrolls && !table.hasAttribute('tabindex')) {
          table.setAttribute('tabindex', '0');
          table.dataset.scrollStop = '';
        } else if (!scrolls && table.dataset.scrollStop !== undefined) {
          table.removeAttribute('tabindex');
          delete table.dataset.scrollStop;
        }
      }
    };
    const schedule = () => (frame ||= requestAnimationFrame(update));
    const mutations = new MutationObserver(schedule);
    mutations.observe(main, { childList: true, subtree: true });
    window.addEventListener('resize', schedule);
    schedule();
    return () => {
      mutations.disconnect();
      window.removeEventListener('resize', schedule);
      cancelAnimationFrame(frame);
    };
  }, []);
}

/** How long after a navigation the new page's heading is waited for (a page shows it once its data came). */
const HEADING_WAIT_MS = 5000;

/**
 * After a navigation (not on the first page), keyboard focus moves to the new page's heading, so keyboard and screen
 * reader users start on the page they went to instead of in the navigation. Focus the user has already put somewhere
 * on the page meanwhile is left where it is.
 */
function useHeadingFocusOnNavigation(location: string) {
  const firstPage = useRef(true);
  useEffect(() => {
    if (firstPage.current) {
      firstPage.current = false;
      return;
    }
    const deadline = performance.now() + HEADING_WAIT_MS;
    let frame = 0;
    const focusHeading = () => {
      const active = document.activeElement;
      if (active && active !== document.body && !active.closest('.sidebar')) return;
      const heading = document.querySelector<HTMLElement>('main h1');
      if (heading) {
        if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
        heading.focus();
      } else if (performance.now() < deadline) {
        frame = requestAnimationFrame(focusHeading);
      }
    };
    frame = requestAnimationFrame(focusHeading);
    return () => cancelAnimationFrame(frame);
  }, [location]);
}

function NotFound() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        <Link href="/endpoints">Back to the endpoints</Link>
      </p>
    </section>
  );
}
