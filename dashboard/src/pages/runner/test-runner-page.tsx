import { PageHeader } from '../../ui/controls';

export default function TestRunnerPage() {
  return <PageHeader title="TestRunnerPage" />;
}
