import { PageHeader } from '../../ui/controls';

export default function VersionView() {
  return <PageHeader title="VersionView" />;
}
