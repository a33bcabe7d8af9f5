import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
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
  return (
    <div className="layout">
      <a
        className="skip-link"
        href="#main"
        onClick={(event) => (event.preventDefault(), document.getElementById('main')?.focus())}
      >
        Skip to content
      </a>
      <aside className="sidebar">
        <div className="brand">Promptgate</div>
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
