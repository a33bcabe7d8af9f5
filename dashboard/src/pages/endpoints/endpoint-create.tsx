import { Link } from 'wouter';
import { navigate } from '../../router';
import { PageHeader } from '../../ui/controls';
import { EndpointForm } from './endpoint-form';
import './endpoints.css';

/** A new endpoint: its settings first; its fields and prompts are added on its page, where saving leads. */
export default function EndpointCreate() {
  return (
    <section className="endpoint-create">
      <PageHeader title="New endpoint" back={<Link href="/endpoints">← Endpoints</Link>} />
      <p className="muted lead">
        An endpoint is a URL your applications call with JSON inputs. After saving, add its input and output fields,
        then a prompt.
      </p>
      <EndpointForm
        onSaved={(endpoint) => navigate(`/endpoints/${endpoint.id}`)}
        onCancel={() => navigate('/endpoints')}
      />
    </section>
  );
}
