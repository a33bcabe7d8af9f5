import { PageHeader } from '../../ui/controls';

export default function ModelsPage() {
  return <PageHeader title="ModelsPage" />;
}
