import { PageHeader } from '../../ui/controls';

export default function StatsPage() {
  return <PageHeader title="StatsPage" />;
}
