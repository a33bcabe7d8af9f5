import { PageHeader } from '../../ui/controls';

export default function PromptCreate() {
  return <PageHeader title="PromptCreate" />;
}
