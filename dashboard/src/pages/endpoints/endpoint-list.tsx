import { Link } from 'wouter';
import { api, unwrapPage } from '../../api/client';
import { Loading, PageHeader, Problems } from '../../ui/controls';
import { useLoad } from '../../ui/use-load';

export function EndpointList() {
  const endpoints = useLoad(() => unwrapPage(api.GET('/admin/v1/endpoints', { params: { query: {} } })), []);
  return (
    <section>
      <PageHeader title="Endpoints" />
      <Problems error={endpoints.error} />
      {!endpoints.data ? (
        <Loading what="endpoints" />
      ) : (
        <ul>
          {endpoints.data.items.map((endpoint) => (
            <li key={endpoint.id}>
              <Link href={`/endpoints/${endpoint.id}`}>{endpoint.name}</Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
