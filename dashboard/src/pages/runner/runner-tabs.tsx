import { Link } from 'wouter';

/**
 * The test runner's views as tabs, each a link of its own: one run at a time, or a grid of inputs against prompts
 * side by side. The prompt chosen in one view is carried to the other.
 */
export function RunnerTabs({
  endpointId,
  view,
  promptId,
}: {
  endpointId: string;
  view: 'single' | 'grid';
  promptId: string | null;
}) {
  const query = promptId ? `?prompt=${encodeURIComponent(promptId)}` : '';
  const views = [
    { view: 'single', label: 'Single run', href: `/endpoints/${endpointId}/run${query}` },
    { view: 'grid', label: 'Compare side by side', href: `/endpoints/${endpointId}/run/compare${query}` },
  ] as const;
  return (
    <nav className="view-tabs" aria-label="Test runner views">
      <ul>
        {views.map((item) => (
          <li key={item.view}>
            <Link href={item.href} aria-current={item.view === view ? 'page' : undefined}>
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
