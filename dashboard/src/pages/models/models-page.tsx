import { api, type Schemas, unwrap } from '../../api/client';
import { useQuery } from '../../router';
import { Button, Field, Loading, PageHeader, Problems } from '../../ui/controls';
import { formatNumber } from '../../ui/format';
import { useLoad } from '../../ui/use-load';
import './models.css';

type Model = Schemas['ModelResponse'];

/** The environment variable that configures each built-in provider. */
const PROVIDER_KEYS: Record<string, string> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
  google: 'GOOGLE_GENERATIVE_AI_API_KEY',
};

const PROVIDER_NAMES: Record<string, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  google: 'Google',
  mock: 'Built-in (offline)',
};

const CAPABILITIES: { key: keyof Model['capabilities']; label: string }[] = [
  { key: 'jsonMode', label: 'Structured output' },
  { key: 'vision', label: 'Image input' },
  { key: 'imageGeneration', label: 'Image generation' },
  { key: 'tools', label: 'Tools' },
  { key: 'reasoning', label: 'Reasoning' },
  { key: 'streaming', label: 'Streaming' },
];

const AVAILABILITY = ['available', 'not-configured'] as const;

export default function ModelsPage() {
  const [query, setQuery] = useQuery();
  const provider = query.get('provider') || undefined;
  const availability = AVAILABILITY.find((value) => value === query.get('availability'));
  const search = query.get('search') ?? '';
  const models = useLoad(() => unwrap(api.GET('/admin/v1/prompts/models')), []);

  const all = models.data ? sortModels(models.data) : [];
  const providers = [...new Set(all.map((model) => model.provider))].sort((a, b) =>
    providerName(a).localeCompare(providerName(b)),
  );
  const needle = search.trim().toLowerCase();
  const shown = all.filter(
    (model) =>
      (!provider || model.provider === provider) &&
      (!availability || model.available === (availability === 'available')) &&
      (!needle || model.id.toLowerCase().includes(needle) || model.displayName.toLowerCase().includes(needle)),
  );
  const apply = (next: { provider?: string; availability?: string; search?: string }) =>
    setQuery({ provider, availability, search: search || undefined, ...next });
  const filtered = Boolean(provider || availability || needle);

  return (
    <section>
      <PageHeader title="Models" />
      <p className="muted models-intro">
        The models a prompt can use. A model is available when its provider is configured: set the provider's API key in
        the service's environment and restart it. Prices are in US dollars per million tokens.
      </p>
      <form className="filters" aria-label="Filters" onSubmit={(event) => event.preventDefault()}>
        <Field label="Search">
          {(id) => (
            <input
              id={id}
              type="search"
              value={search}
              onChange={(event) => apply({ search: event.target.value || undefined })}
            />
          )}
        </Field>
        <Field label="Provider">
          {(id) => (
            <select
              id={id}
              value={provider ?? ''}
              onChange={(event) => apply({ provider: event.target.value || undefined })}
            >
              <option value="">All providers</option>
              {providers.map((name) => (
                <option key={name} value={name}>
                  {providerName(name)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Availability">
          {(id) => (
            <select
              id={id}
              value={availability ?? ''}
              onChange={(event) => apply({ availability: event.target.value || undefined })}
            >
              <option value="">Any</option>
              <option value="available">Available</option>
              <option value="not-configured">Not configured</option>
            </select>
          )}
        </Field>
        {filtered && <Button onClick={() => setQuery({})}>Clear filters</Button>}
      </form>

      <Problems error={models.error} />
      {!models.data ? (
        !models.error && <Loading what="the model catalog" />
      ) : (
        <>
          <p className="models-count" role="status">
            {filtered
              ? `${formatNumber(shown.length)} of ${formatNumber(all.length)} models`
              : `${formatNumber(all.length)} models`}
            , {formatNumber(shown.filter((model) => model.available).length)} available
          </p>
          {shown.length === 0 ? (
            <p className="empty">No model matches these filters.</p>
          ) : (
            <div className="table-wrap">
              <table className="models-table">
                <caption className="visually-hidden">Model catalog, available models first</caption>
                <thead>
                  <tr>
                    <th scope="col">Model</th>
                    <th scope="col">Provider</th>
                    <th scope="col">Availability</th>
                    <th scope="col" className="number">
                      Context window (tokens)
                    </th>
                    <th scope="col" className="number">
                      Input, per 1M tokens
                    </th>
                    <th scope="col" className="number">
                      Output, per 1M tokens
                    </th>
                    <th scope="col">Capabilities</th>
                  </tr>
                </thead>
                <tbody>
                  {shown.map((model) => (
                    <ModelRow key={model.id} model={model} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  );
}

function ModelRow({ model }: { model: Model }) {
  const capabilities = CAPABILITIES.filter((capability) => model.capabilities[capability.key]);
  return (
    <tr data-model={model.id}>
      <th scope="row">
        <div className="model-name">
          <span>{model.displayName}</span>
          <code>{model.id}</code>
          {model.isTestModel && <span className="badge">offline test model</span>}
        </div>
      </th>
      <td>{providerName(model.provider)}</td>
      <td>
        {model.available ? (
          <span className="badge ok">Available</span>
        ) : (
          <>
            <span className="badge not-configured">Not configured</span>
            <small className="hint">{configureHint(model.provider)}</small>
          </>
        )}
      </td>
      <td className="number">{formatNumber(model.contextWindow)}</td>
      <td className="number">{price(model.pricing.inputPerMillionTokens)}</td>
      <td className="number">
        {price(model.pricing.outputPerMillionTokens)}
        {model.pricing.perImage !== null && model.pricing.perImage > 0 && (
          <div className="muted">{`$${model.pricing.perImage} per image`}</div>
        )}
      </td>
      <td>
        {capabilities.length === 0 ? (
          <span className="muted">—</span>
        ) : (
          <ul className="capabilities">
            {capabilities.map((capability) => (
              <li key={capability.key}>{capability.label}</li>
            ))}
          </ul>
        )}
      </td>
    </tr>
  );
}

/** Available first, then by provider and name. */
function sortModels(models: Model[]): Model[] {
  return [...models].sort(
    (a, b) =>
      Number(b.available) - Number(a.available) ||
      Number(a.isTestModel) - Number(b.isTestModel) ||
      providerName(a.provider).localeCompare(providerName(b.provider)) ||
      a.displayName.localeCompare(b.displayName),
  );
}

function providerName(provider: string): string {
  return PROVIDER_NAMES[provider] ?? provider;
}

function configureHint(provider: string): string {
  const variable = PROVIDER_KEYS[provider];
  return variable
    ? `Set ${variable} in the service's environment and restart it.`
    : `Set the API key of provider "${provider}" (its apiKey or the variable its apiKeyEnv names in MODELS_FILE) and restart the service.`;
}

function price(usd: number | null): string {
  if (usd === null) return '—';
  return `$${usd.toLocaleString(undefined, { maximumFractionDigits: 4 })}`;
}
