import { PageHeader } from '../../ui/controls';

export default function VersionCompare() {
  return <PageHeader title="VersionCompare" />;
}
