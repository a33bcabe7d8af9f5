import { Injectable } from '@nestjs/common';
import {
  CompareVersionsQuery,
  CreatePromptDto,
  ListPromptsQuery,
  UpdatePromptDto,
  ValidateTemplateDto,
} from '../../prompts/dto/prompt.dto';
import { PromptLifecycleService } from '../../prompts/prompt-lifecycle.service';
import { PromptVersionsService } from '../../prompts/prompt-versions.service';
import { PromptsService } from '../../prompts/prompts.service';
import { defineTool, McpTool, McpToolGroup, uuidId, versionNumberId } from '../mcp-tool';

const id = uuidId('Prompt id (uuid)');
const versionNumber = versionNumberId('Version number, from 1');

/** Prompts, their lifecycle, versions and the template validator: the same services and request DTOs as the REST controllers. */
@Injectable()
export class PromptTools extends McpToolGroup {
  readonly toolset = 'prompts';

  constructor(
    private readonly prompts: PromptsService,
    private readonly lifecycle: PromptLifecycleService,
    private readonly versions: PromptVersionsService,
  ) {
    super();
  }

  tools(): McpTool[] {
    const { prompts, lifecycle, versions } = this;
    const action = (
      name: string,
      title: string,
      description: string,
      run: (tenantId: string, id: string, keyId: string) => Promise<object>,
    ) =>
      defineTool({
        name,
        title,
        description,
        access: 'write',
        ids: { id },
        output: 'object',
        run: ({ principal, ids }) => run(principal.tenantId, ids.id, principal.keyId),
      });
    return [
      defineTool({
        name: 'list_prompts',
        title: 'List prompts',
        description:
          'The prompts of an endpoint (archived ones only with status "Archived"), with status, isDefault and currentVersion.',
        access: 'read',
        input: ListPromptsQuery,
        output: 'list',
        run: ({ principal, input }) =>
          prompts.list(principal.tenantId, input.endpointId, { status: input.status, search: input.search }),
      }),
      defineTool({
        name: 'get_prompt',
        title: 'Get a prompt',
        description: 'A prompt with its Liquid template, model and settings.',
        access: 'read',
        ids: { id },
        output: 'object',
        run: ({ principal, ids }) => prompts.get(principal.tenantId, ids.id),
      }),
      defineTool({
        name: 'validate_template',
        title: 'Validate a template',
        description:
          'Checks a Liquid template against an endpoint: syntax errors with line and column, the inputs.<name> variables it ' +
          'reads, and unknown ones (not input fields).',
        access: 'read',
        input: ValidateTemplateDto,
        output: 'object',
        run: ({ principal, input }) => prompts.validateTemplate(principal.tenantId, input.endpointId, input.template),
      }),
      defineTool({
        name: 'create_prompt',
        title: 'Create a prompt',
        description:
          'Creates a Draft prompt on an endpoint (version 1): a Liquid template reading {{ inputs.<field> }}, a model id from ' +
          'list_models and its settings (retries and fallbackModels among them). Promote it, then set it as default, to serve it.',
        access: 'write',
        input: CreatePromptDto,
        output: 'object',
        run: ({ principal, input }) => prompts.create(principal.tenantId, input, principal.keyId),
      }),
      defineTool({
        name: 'update_prompt',
        title: 'Update a prompt',
        description:
          'Changes any of name, template, llmModel, temperature, maxTokens, customParameters, retries, fallbackModels; a ' +
          'change of template, model or settings creates a new version.',
        access: 'write',
        ids: { id },
        input: UpdatePromptDto,
        output: 'object',
        run: ({ principal, ids, input }) => prompts.update(principal.tenantId, ids.id, input, principal.keyId),
      }),
      action(
        'promote_prompt',
        'Promote a prompt',
        'Draft → Live: it can then be the default and be called with ?prompt=.',
        (t, p, k) => lifecycle.promote(t, p, { force: false }, k),
      ),
      action(
        'demote_prompt',
        'Demote a prompt',
        "Live → Draft. Demoting the default clears the endpoint's default.",
        (t, p, k) => lifecycle.demote(t, p, k),
      ),
      action(
        'set_default_prompt',
        'Set the default prompt',
        "Makes a Live prompt its endpoint's default, replacing the previous one with no gap.",
        (t, p, k) => lifecycle.setDefault(t, p, k),
      ),
      action(
        'archive_prompt',
        'Archive a prompt',
        'Removes a Draft or Live prompt from use (not the default: set another first); history is kept.',
        (t, p, k) => lifecycle.archive(t, p, k),
      ),
      action('unarchive_prompt', 'Unarchive a prompt', 'Archived → Draft.', (t, p, k) => lifecycle.unarchive(t, p, k)),
      action(
        'duplicate_prompt',
        'Duplicate a prompt',
        'Clones a prompt as a new Draft; the original is unchanged.',
        (t, p, k) => prompts.duplicate(t, p, k),
      ),
      defineTool({
        name: 'list_versions',
        title: 'List versions',
        description:
          "Every immutable version of a prompt, oldest first (archived: true once past the plan's history limit).",
        access: 'read',
        ids: { id },
        output: 'list',
        run: ({ principal, ids }) => versions.list(principal.tenantId, ids.id),
      }),
      defineTool({
        name: 'get_version',
        title: 'Get a version',
        description: 'One version of a prompt: template, model and settings as saved.',
        access: 'read',
        ids: { id, versionNumber },
        output: 'object',
        run: ({ principal, ids }) => versions.get(principal.tenantId, ids.id, ids.versionNumber),
      }),
      defineTool({
        name: 'compare_versions',
        title: 'Compare versions',
        description: 'A line diff of the templates of two versions and the settings that changed.',
        access: 'read',
        ids: { id },
        input: CompareVersionsQuery,
        output: 'object',
        run: ({ principal, ids, input }) => versions.compare(principal.tenantId, ids.id, input.from, input.to),
      }),
      defineTool({
        name: 'restore_version',
        title: 'Restore a version',
        description:
          "Creates a new Draft prompt holding that version's content; history is unchanged. Rollback = restore, promote, set default.",
        access: 'write',
        ids: { id, versionNumber },
        output: 'object',
        run: ({ principal, ids }) => versions.restore(principal.tenantId, ids.id, ids.versionNumber, principal.keyId),
      }),
    ];
  }
}
