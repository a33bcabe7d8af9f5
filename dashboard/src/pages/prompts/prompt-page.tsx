import { PageHeader } from '../../ui/controls';

export default function PromptPage() {
  return <PageHeader title="PromptPage" />;
}
