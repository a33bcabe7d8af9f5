import { PageHeader } from '../../ui/controls';

export default function EndpointCreate() {
  return <PageHeader title="EndpointCreate" />;
}
