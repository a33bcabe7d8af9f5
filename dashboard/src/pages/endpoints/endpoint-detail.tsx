import { PageHeader } from '../../ui/controls';

export default function EndpointDetail() {
  return <PageHeader title="EndpointDetail" />;
}
