import { PageHeader } from '../../ui/controls';

export default function KeysPage() {
  return <PageHeader title="Keys" />;
}
