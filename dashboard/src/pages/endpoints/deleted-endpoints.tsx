import { PageHeader } from '../../ui/controls';

export default function DeletedEndpoints() {
  return <PageHeader title="DeletedEndpoints" />;
}
