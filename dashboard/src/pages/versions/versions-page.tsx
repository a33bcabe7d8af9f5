import { PageHeader } from '../../ui/controls';

export default function VersionsPage() {
  return <PageHeader title="VersionsPage" />;
}
