import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { validateDto } from '../../../common/http/validation.pipe';
import { CompareVersionsQuery, CreatePromptDto, ListPromptsQuery, UpdatePromptDto, ValidateTemplateDto } from '../../prompts/dto/prompt.dto';
import { PromptLifecycleService } from '../../prompts/prompt-lifecycle.service';
import { PromptVersionsService } from '../../prompts/prompt-versions.service';
import { PromptsService } from '../../prompts/prompts.service';
import { defineTool, integerArgument, McpTool, McpToolGroup, optionalShape } from '../mcp-tool';

const promptId = z.string().uuid().describe('Prompt id (uuid)');
const versionNumber = integerArgument().min(1).describe('Version number, from 1');
const content = {
  name: z.string().describe('Unique among the endpoint\'s prompts that are not archived; its slug selects it with ?prompt='),
  template: z.string().describe('Liquid template; read request values as {{ inputs.<field> }}; the default filter works on missing ones'),
  llmModel: z.string().describe('A model id from list_models'),
  temperature: z.number().optional().describe('0..2, default 0.7'),
  maxTokens: integerArgument().optional().describe('At least 1, default 1024'),
  customParameters: z.record(z.string(), z.unknown()).optional().describe('Provider settings; on image endpoints e.g. {"size":"1024x1024","quality":"high"}'),
  changeNotes: z.string().optional().describe('Describes this save; recorded on the version'),
};

/** Prompts, their lifecycle, versions and the template validator: the same services as the REST controllers. */
@Injectable()
export class PromptTools extends McpToolGroup {
  constructor(
    private readonly prompts: PromptsService,
    private readonly lifecycle: PromptLifecycleService,
    private readonly versions: PromptVersionsService,
  ) {
    super();
  }

  tools(): McpTool[] {
    const { prompts, lifecycle, versions } = this;
    const action = (name: string, title: string, description: string, run: (tenantId: string, id: string) => Promise<unknown>) =>
      defineTool({ name, title, description, access: 'write', input: { id: promptId }, run: (p, args) => run(p.tenantId, args.id) });
    return [
      defineTool({
        name: 'list_prompts',
        title: 'List prompts',
        description: 'The prompts of an endpoint (archived ones only with status "Archived"), with status, isDefault and currentVersion.',
        access: 'read',
        input: { endpointId: z.string().uuid(), status: z.enum(['Draft', 'Live', 'Archived']).optional(), search: z.string().optional() },
        run: (p, args) => {
          const query = validateDto(ListPromptsQuery, args);
          return prompts.list(p.tenantId, query.endpointId, query);
        },
      }),
      defineTool({
        name: 'get_prompt',
        title: 'Get a prompt',
        description: 'A prompt with its Liquid template, model and settings.',
        access: 'read',
        input: { id: promptId },
        run: (p, args) => prompts.get(p.tenantId, args.id),
      }),
      defineTool({
        name: 'validate_template',
        title: 'Validate a template',
        description: 'Checks a Liquid template against an endpoint: syntax errors with line and column, the inputs.<name> variables it reads, and unknown ones (not input fields).',
        access: 'read',
        input: { endpointId: z.string().uuid(), template: z.string() },
        run: (p, args) => {
          const dto = validateDto(ValidateTemplateDto, args);
          return prompts.validateTemplate(p.tenantId, dto.endpointId, dto.template);
        },
      }),
      defineTool({
        name: 'create_prompt',
        title: 'Create a prompt',
        description: 'Creates a Draft prompt on an endpoint (version 1). Promote it, then set it as default, to serve it.',
        access: 'write',
        input: { endpointId: z.string().uuid(), ...content },
        run: (p, args) => prompts.create(p.tenantId, validateDto(CreatePromptDto, args)),
      }),
      defineTool({
        name: 'update_prompt',
        title: 'Update a prompt',
        description: 'Changes any of name, template, llmModel, temperature, maxTokens, customParameters; a change of template, model or settings creates a new version.',
        access: 'write',
        input: { id: promptId, ...optionalShape(content) },
        run: (p, { id, ...changes }) => prompts.update(p.tenantId, id, validateDto(UpdatePromptDto, changes)),
      }),
      action('promote_prompt', 'Promote a prompt', 'Draft → Live: it can then be the default and be called with ?prompt=.', (t, id) => lifecycle.promote(t, id)),
      action('demote_prompt', 'Demote a prompt', 'Live → Draft. Demoting the default clears the endpoint\'s default.', (t, id) => lifecycle.demote(t, id)),
      action('set_default_prompt', 'Set the default prompt', 'Makes a Live prompt its endpoint\'s default, replacing the previous one with no gap.', (t, id) => lifecycle.setDefault(t, id)),
      action('archive_prompt', 'Archive a prompt', 'Removes a Draft or Live prompt from use (not the default: set another first); history is kept.', (t, id) => lifecycle.archive(t, id)),
      action('unarchive_prompt', 'Unarchive a prompt', 'Archived → Draft.', (t, id) => lifecycle.unarchive(t, id)),
      action('duplicate_prompt', 'Duplicate a prompt', 'Clones a prompt as a new Draft; the original is unchanged.', (t, id) => prompts.duplicate(t, id)),
      defineTool({
        name: 'list_versions',
        title: 'List versions',
        description: 'Every immutable version of a prompt, oldest first (archived: true once past the plan\'s history limit).',
        access: 'read',
        input: { id: promptId },
        run: (p, args) => versions.list(p.tenantId, args.id),
      }),
      defineTool({
        name: 'get_version',
        title: 'Get a version',
        description: 'One version of a prompt: template, model and settings as saved.',
        access: 'read',
        input: { id: promptId, versionNumber },
        run: (p, args) => versions.get(p.tenantId, args.id, args.versionNumber),
      }),
      defineTool({
        name: 'compare_versions',
        title: 'Compare versions',
        description: 'A line diff of the templates of two versions and the settings that changed.',
        access: 'read',
        input: { id: promptId, from: versionNumber, to: versionNumber },
        run: (p, { id, ...range }) => {
          const query = validateDto(CompareVersionsQuery, range);
          return versions.compare(p.tenantId, id, query.from, query.to);
        },
      }),
      defineTool({
        name: 'restore_version',
        title: 'Restore a version',
        description: 'Creates a new Draft prompt holding that version\'s content; history is unchanged. Rollback = restore, promote, set default.',
        access: 'write',
        input: { id: promptId, versionNumber },
        run: (p, args) => versions.restore(p.tenantId, args.id, args.versionNumber),
      }),
    ];
  }
}
