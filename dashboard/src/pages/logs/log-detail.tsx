import { PageHeader } from '../../ui/controls';

export default function LogDetail() {
  return <PageHeader title="LogDetail" />;
}
