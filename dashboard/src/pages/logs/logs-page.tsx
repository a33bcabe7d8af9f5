import { PageHeader } from '../../ui/controls';

export default function LogsPage() {
  return <PageHeader title="LogsPage" />;
}
