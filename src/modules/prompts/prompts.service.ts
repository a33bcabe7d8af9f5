import { Inject, Injectable } from '@nestjs/common';
import { NotFoundError, ValidationError } from '../../common/errors/app-error';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import type { Endpoint } from '../endpoints/endpoint-definition';
import { EndpointsService } from '../endpoints/endpoints.service';
import { customParametersProblems } from '../llm/call-settings';
import { ModelsService } from '../models/models.service';
import type { PromptEventDetails } from '../prompt-events/prompt-event';
import { PromptEventsService } from '../prompt-events/prompt-events.service';
import { contentChanged, VersionContent } from '../versions/version-compare';
import { VersionsService } from '../versions/versions.service';
import {
  PromptResponse,
  TemplateValidationResponse,
  toPromptResponse,
  toTemplateValidationResponse,
} from './dto/prompt.response';
import type { ExecutablePrompt, FallbackModel, PromptStatus } from './executable-prompt';
import type { PromptEntity } from './prompt.entity';
import { savedEvent } from './prompt-history';
import { copyName, slugify } from './prompt-naming';
import { PromptErrors } from './prompts.errors';
import { PromptFilter, PromptsRepository, PromptValues } from './prompts.repository';
import { TemplateService } from './template/template.service';
import { TransactionHost } from '../../database/transactions';

export const PROMPT_DEFAULTS = {
  temperature: 0.7,
  maxTokens: 1024,
  customParameters: {} as Record<string, unknown>,
  retries: 0,
  fallbackModels: [] as FallbackModel[],
};

export interface NewPrompt {
  endpointId: string;
  name: string;
  template: string;
  llmModel: string;
  temperature?: number;
  maxTokens?: number;
  customParameters?: Record<string, unknown>;
  retries?: number;
  fallbackModels?: FallbackModel[];
  changeNotes?: string | null;
}

/** A prompt's content as a create takes it, without a name: what a test run of unsaved text runs. */
export type UnsavedPrompt = Omit<NewPrompt, 'endpointId' | 'name' | 'changeNotes'>;

export type PromptChanges = Partial<Omit<NewPrompt, 'endpointId'>>;

/**
 * A new Draft prompt whose version 1 holds `content`; `pickName` chooses its name given the names in use. `event` is
 * what its history records: created, duplicated or restored, with details (the name chosen is added to them).
 */
export interface NewDraft {
  pickName: (isTaken: (candidate: string) => boolean) => string;
  content: VersionContent;
  changeNotes: string | null;
  event: { type: 'created' | 'duplicated' | 'restored'; details: PromptEventDetails };
}

@Injectable()
export class PromptsService {
  constructor(
    private readonly prompts: PromptsRepository,
    private readonly endpoints: EndpointsService,
    private readonly versions: VersionsService,
    private readonly models: ModelsService,
    private readonly templates: TemplateService,
    private readonly txHost: TransactionHost,
    private readonly events: PromptEventsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(tenantId: string, endpointId: string, filter: PromptFilter): Promise<PromptResponse[]> {
    const endpoint = await this.endpoints.requireActive(tenantId, endpointId);
    const prompts = await this.prompts.list(tenantId, endpoint.id, filter);
    return prompts.map((prompt) => toPromptResponse(prompt, endpoint.defaultPromptId));
  }

  async get(tenantId: string, id: string): Promise<PromptResponse> {
    const { prompt, endpoint } = await this.require(tenantId, id);
    return toPromptResponse(prompt, endpoint.defaultPromptId);
  }

  /** A prompt of one of the tenant's active endpoints, with that endpoint; 404 otherwise (another tenant's too). */
  async require(tenantId: string, id: string): Promise<{ prompt: PromptEntity; endpoint: Endpoint }> {
    const prompt = await this.prompts.findById(tenantId, id);
    if (!prompt) throw PromptErrors.promptNotFound(id);
    try {
      return { prompt, endpoint: await this.endpoints.requireActive(tenantId, prompt.endpointId) };
    } catch (error) {
      // A soft-deleted endpoint hides its prompts until it is restored.
      throw error instanceof NotFoundError ? PromptErrors.promptNotFound(id) : error;
    }
  }

  /** `keyId`: the key making the change (null when none), recorded in the prompt's history. */
  async create(tenantId: string, input: NewPrompt, keyId: string | null): Promise<PromptResponse> {
    requireSlug(input.name);
    await this.assertContent(tenantId, input.endpointId, input);
    const prompt = await this.createDraft(tenantId, input.endpointId, keyId, {
      pickName: exactName(input.name),
      content: newContentOf(input),
      changeNotes: input.changeNotes ?? null,
      event: { type: 'created', details: {} },
    });
    return toPromptResponse(prompt, null);
  }

  /**
   * A test run of unsaved text: the settings as a create would save them, under the same rules (each problem a 400
   * naming `prompt.<field>`), as a prompt that runs on the endpoint without being stored (promptId null in its log).
   */
  async unsavedForTestRun(tenantId: string, endpointId: string, input: UnsavedPrompt): Promise<ExecutablePrompt> {
    try {
      await this.assertContent(tenantId, endpointId, input);
    } catch (error) {
      throw error instanceof ValidationError ? withFieldPrefix(error, 'prompt') : error;
    }
    return {
      id: `unsaved:${endpointId}`,
      endpointId,
      name: '(unsaved)',
      slug: 'unsaved',
      status: 'Draft',
      version: 0,
      unsaved: true,
      ...newContentOf(input),
    };
  }

  /**
   * The rules every prompt's content is created under: its template, its model, its customParameters and fallbacks,
   * and the temperatures its models take.
   */
  private async assertContent(tenantId: string, endpointId: string, input: UnsavedPrompt): Promise<void> {
    this.templates.assertSavable(input.template);
    this.models.require(input.llmModel);
    await this.assertCustomParameters(tenantId, endpointId, input.customParameters, input.fallbackModels);
    this.assertTemperatures(newContentOf(input));
  }

  /** A clone as a new Draft named `<name> (copy)`; the original is unchanged. */
  async duplicate(tenantId: string, id: string, keyId: string | null): Promise<PromptResponse> {
    const { prompt } = await this.require(tenantId, id);
    const created = await this.createDraft(tenantId, prompt.endpointId, keyId, {
      pickName: (isTaken) => copyName(prompt.name, isTaken),
      content: contentOf(prompt),
      changeNotes: `Duplicated from '${prompt.name}' version ${prompt.currentVersion}`,
      event: {
        type: 'duplicated',
        details: { sourcePromptId: prompt.id, sourceName: prompt.name, sourceVersionNumber: prompt.currentVersion },
      },
    });
    return toPromptResponse(created, null);
  }

  /**
   * Creates a Draft prompt, its version 1 and the event of its history in one transaction (create, duplicate,
   * restore): all of them or none.
   */
  async createDraft(
    tenantId: string,
    endpointId: string,
    keyId: string | null,
    draft: NewDraft,
  ): Promise<PromptEntity> {
    const historyLimit = await this.versions.historyLimit(tenantId);
    const created = await this.txHost.withTransaction(async () => {
      const inUse = await this.prompts.activeNamesAndSlugs(tenantId, endpointId);
      const name = draft.pickName((candidate) =>
        inUse.some((p) => p.name === candidate || p.slug === slugify(candidate)),
      );
      const prompt = await this.prompts.insert(tenantId, endpointId, {
        name,
        slug: slugify(name),
        ...draft.content,
        status: 'Draft',
        currentVersion: 1,
        changeNotes: draft.changeNotes,
      });
      await this.versions.append(
        tenantId,
        prompt.id,
        1,
        { status: 'Draft', content: draft.content, changeNotes: draft.changeNotes },
        historyLimit,
      );
      await this.events.record(tenantId, {
        type: draft.event.type,
        endpointId,
        promptId: prompt.id,
        versionNumber: 1,
        keyId,
        details: { name, ...draft.event.details },
      });
      return prompt;
    });
    await this.endpoints.notifyChanged(endpointId);
    return created;
  }

  /**
   * A change of the template, the model or a setting creates the next version (numbered under the
   * prompt's row lock); a change of only the name or changeNotes, or values already there, creates none. The version
   * and the prompt's new content are written in one transaction: both or neither. A new version is recorded in the
   * prompt's history as `saved`, with the share of the endpoint's traffic that it is served to at once (a Live prompt
   * serves its latest version).
   */
  async update(tenantId: string, id: string, changes: PromptChanges, keyId: string | null): Promise<PromptResponse> {
    if (changes.template !== undefined) this.templates.assertSavable(changes.template);
    if (changes.llmModel !== undefined) this.models.require(changes.llmModel);
    if (changes.name !== undefined) requireSlug(changes.name);
    const { endpoint } = await this.require(tenantId, id);
    const endpointId = endpoint.id;
    if (changes.customParameters !== undefined || changes.fallbackModels !== undefined)
      await this.assertCustomParameters(tenantId, endpointId, changes.customParameters, changes.fallbackModels);
    const historyLimit = await this.versions.historyLimit(tenantId);
    await this.txHost.withTransaction(async () => {
      const prompt = await this.lock(tenantId, id);
      const before = contentOf(prompt);
      const after: VersionContent = {
        template: changes.template ?? before.template,
        llmModel: changes.llmModel ?? before.llmModel,
        temperature: changes.temperature ?? before.temperature,
        maxTokens: changes.maxTokens ?? before.maxTokens,
        customParameters: changes.customParameters ?? before.customParameters,
        retries: changes.retries ?? before.retries,
        fallbackModels: changes.fallbackModels ? plainFallbacks(changes.fallbackModels) : before.fallbackModels,
      };
      this.assertTemperatures(after);
      const update: Partial<PromptValues> = {};
      if (changes.name !== undefined && changes.name !== prompt.name) {
        if (prompt.status !== 'Archived') await this.ensureNameFree(prompt, changes.name);
        Object.assign(update, { name: changes.name, slug: slugify(changes.name) });
        // Callers that select the prompt by its old name or slug keep reaching it.
        await this.prompts.retireSelectors(tenantId, prompt.endpointId, id, [prompt.name, prompt.slug]);
      }
      if (contentChanged(before, after)) {
        const changeNotes = changes.changeNotes ?? null;
        const versionNumber = prompt.currentVersion + 1;
        await this.versions.append(
          tenantId,
          id,
          versionNumber,
          { status: prompt.status, content: after, changeNotes },
          historyLimit,
        );
        Object.assign(update, after, { currentVersion: versionNumber, changeNotes });
        await this.events.record(
          tenantId,
          savedEvent({ endpoint, promptId: id, versionNumber, keyId }, prompt, { before, after, changeNotes }),
        );
      } else if (changes.changeNotes !== undefined) {
        update.changeNotes = changes.changeNotes;
      }
      if (Object.keys(update).length > 0) await this.prompts.update(tenantId, id, update);
    });
    await this.endpoints.notifyChanged(endpointId);
    return this.get(tenantId, id);
  }

  /**
   * Every model of the prompt takes the temperature it would be called with (a fallback without one of its own is
   * called with the prompt's): a 400 naming `temperature` or `fallbackModels.<i>.temperature` otherwise.
   */
  private assertTemperatures(content: Pick<VersionContent, 'llmModel' | 'temperature' | 'fallbackModels'>): void {
    this.models.requireTemperature(content.llmModel, content.temperature, 'temperature');
    content.fallbackModels.forEach((fallback, index) =>
      this.models.requireTemperature(
        fallback.llmModel,
        fallback.temperature ?? content.temperature,
        fallback.temperature === undefined ? 'temperature' : `fallbackModels.${index}.temperature`,
      ),
    );
  }

  /**
   * customParameters that can be saved on a prompt of this active endpoint (404 otherwise): a 400 naming each
   * `customParameters.<key>` that breaks the rules (size, settings the service controls, image `n`). A fallback
   * model's model and customParameters are held to the same rules, named `fallbackModels.<i>.llmModel` and
   * `fallbackModels.<i>.customParameters.<key>`.
   */
  private async assertCustomParameters(
    tenantId: string,
    endpointId: string,
    parameters: Record<string, unknown> | undefined,
    fallbackModels: FallbackModel[] = [],
  ): Promise<void> {
    fallbackModels.forEach((fallback, index) =>
      this.models.require(fallback.llmModel, `fallbackModels.${index}.llmModel`),
    );
    const { outputFields } = await this.endpoints.getDefinition(tenantId, endpointId);
    const rules = {
      imageEndpoint: outputFields.some((field) => field.dataType === 'image'),
      maxImagesPerCall: this.config.maxImagesPerCall,
    };
    if (parameters !== undefined) {
      const problems = customParametersProblems(parameters, rules);
      if (problems.length > 0) throw new ValidationError(problems, 'customParameters');
    }
    for (const [index, fallback] of fallbackModels.entries()) {
      if (fallback.customParameters === undefined) continue;
      const field = `fallbackModels.${index}`;
      const problems = customParametersProblems(fallback.customParameters, rules).map(
        (problem) => `${field}.${problem}`,
      );
      if (problems.length > 0) throw new ValidationError(problems, `${field}.customParameters`);
    }
  }

  /** The validator, against the endpoint's input fields. */
  async validateTemplate(tenantId: string, endpointId: string, template: string): Promise<TemplateValidationResponse> {
    const { inputFields } = await this.endpoints.getDefinition(tenantId, endpointId);
    this.templates.assertWithinSizeLimit(template);
    return toTemplateValidationResponse(
      this.templates.validate(
        template,
        inputFields.map((f) => f.name),
      ),
    );
  }

  /** The names of the tenant's prompts among `ids` (archived ones included), by id. */
  async namesOf(tenantId: string, ids: string[]): Promise<Map<string, string>> {
    const prompts = await this.prompts.findByIds(tenantId, ids);
    return new Map(prompts.map((prompt) => [prompt.id, prompt.name]));
  }

  /** The prompt, row-locked until the caller's transaction ends. */
  async lock(tenantId: string, id: string): Promise<PromptEntity> {
    const prompt = await this.prompts.lockById(tenantId, id);
    if (!prompt) throw PromptErrors.promptNotFound(id);
    return prompt;
  }

  /** Name and slug unique among the endpoint's non-archived prompts (the partial unique indexes back it). */
  async ensureNameFree(prompt: Pick<PromptEntity, 'id' | 'tenantId' | 'endpointId'>, name: string): Promise<void> {
    const clashes = await this.prompts.findActiveClashes(prompt.tenantId, prompt.endpointId, name, slugify(name));
    if (clashes.some((p) => p.id !== prompt.id)) throw PromptErrors.nameTaken(name);
  }

  async setStatus(tenantId: string, id: string, status: PromptStatus): Promise<void> {
    await this.prompts.update(tenantId, id, { status });
  }
}

/** Create and restore use the given name and refuse a taken one with 409. */
export function exactName(name: string): NewDraft['pickName'] {
  return (isTaken) => {
    if (isTaken(name)) throw PromptErrors.nameTaken(name);
    return name;
  };
}

/** The versioned content of a prompt or of one of its versions (picked field by field, so nothing else is copied). */
export function contentOf(source: VersionContent): VersionContent {
  return {
    template: source.template,
    llmModel: source.llmModel,
    temperature: source.temperature,
    maxTokens: source.maxTokens,
    customParameters: source.customParameters,
    retries: source.retries,
    fallbackModels: source.fallbackModels,
  };
}

/** Fallback models as stored and compared: plain objects holding only the settings given. */
function plainFallbacks(fallbackModels: FallbackModel[]): FallbackModel[] {
  return fallbackModels.map(({ llmModel, temperature, maxTokens, customParameters }) => ({
    llmModel,
    ...(temperature !== undefined ? { temperature } : {}),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    ...(customParameters !== undefined ? { customParameters } : {}),
  }));
}

/** The content a new prompt is saved (or an unsaved one run) with: what is given, the defaults for the rest. */
function newContentOf(input: UnsavedPrompt): VersionContent {
  return {
    template: input.template,
    llmModel: input.llmModel,
    temperature: input.temperature ?? PROMPT_DEFAULTS.temperature,
    maxTokens: input.maxTokens ?? PROMPT_DEFAULTS.maxTokens,
    customParameters: input.customParameters ?? PROMPT_DEFAULTS.customParameters,
    retries: input.retries ?? PROMPT_DEFAULTS.retries,
    fallbackModels: plainFallbacks(input.fallbackModels ?? PROMPT_DEFAULTS.fallbackModels),
  };
}

/** The same problems, each naming its field under `prefix` (`prompt.template`, `prompt.customParameters.model`). */
function withFieldPrefix(error: ValidationError, prefix: string): ValidationError {
  return new ValidationError(
    error.messages.map((message) => `${prefix}.${message}`),
    error.field === null ? prefix : `${prefix}.${error.field}`,
  );
}

function requireSlug(name: string): void {
  if (!slugify(name)) throw new ValidationError('name must contain at least one letter or digit (a-z, 0-9)', 'name');
}
