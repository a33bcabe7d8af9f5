import { ConfigError } from '../config-error';
import { type ModelsFileContent, readModelsFile } from '../models-file';
import { defineSlice, int, matching, text } from '../variable';
import { HTTP_URL } from './patterns';

export interface ProviderConfig {
  apiKey?: string;
  baseUrl?: string;
}

export interface EgressProxyConfig {
  /** Proxy of the calls to https:// URLs (tunnelled with CONNECT). */
  httpsProxy?: string;
  /** Proxy of the calls to http:// URLs. */
  httpProxy?: string;
  /** Hosts reached directly, as NO_PROXY lists them. */
  noProxy?: string;
}

export interface LlmConfig {
  providers: { openai: ProviderConfig; anthropic: ProviderConfig; google: ProviderConfig };
  modelsFile?: string;
  /** MODELS_FILE, parsed and validated at start (API keys resolved from apiKeyEnv). */
  modelsFileContent?: ModelsFileContent;
  /** Largest answer body read from a provider (or produced by the mock), in bytes: a larger one is a 502. */
  maxAnswerBytes: number;
  /** The egress proxy of the provider calls: set when HTTPS_PROXY or HTTP_PROXY is. */
  egressProxy?: EgressProxyConfig;
}

/** The proxy variables are also read in lower case, as curl and most HTTP clients read them; upper case wins. */
export const LOWER_CASE_TOO = ['HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY'] as const;

/** The model providers, the models file and the proxy their calls go through. */
export const llmSlice = defineSlice({
  variables: {
    OPENAI_API_KEY: text({
      meaning: 'Enables the OpenAI models.',
    }),
    OPENAI_BASE_URL: matching(HTTP_URL, 'OPENAI_BASE_URL must be an http(s) URL', {
      docDefault: "OpenAI's",
      meaning: 'Another base URL for the OpenAI API (a proxy, a compatible server).',
    }),
    ANTHROPIC_API_KEY: text({
      meaning: 'Enables the Anthropic models.',
    }),
    ANTHROPIC_BASE_URL: matching(HTTP_URL, 'ANTHROPIC_BASE_URL must be an http(s) URL', {
      docDefault: "Anthropic's",
      meaning: 'Another base URL for the Anthropic API.',
    }),
    GOOGLE_GENERATIVE_AI_API_KEY: text({
      meaning: 'Enables the Google Gemini and Imagen models.',
    }),
    GOOGLE_BASE_URL: matching(HTTP_URL, 'GOOGLE_BASE_URL must be an http(s) URL', {
      docDefault: "Google's",
      meaning: 'Another base URL for the Gemini API.',
    }),
    MODELS_FILE: text({
      meaning:
        'A JSON file (`.json`) or YAML file (any other extension) adding OpenAI-compatible providers and overriding catalog entries: see [the models file](#the-models-file).',
    }),
    MAX_ANSWER_BYTES: int(
      { min: 1024 },
      {
        default: 4 * 1024 * 1024,
        docDefault: '`4194304` (4 MiB)',
        meaning:
          "Largest answer body read from a provider (or produced by `mock`), at least 1024; past it the read stops, the connection is closed and the call answers 502 `upstream_error` (`the model's answer is too large`). An image generation answer may also hold its images: up to `MAX_IMAGES_PER_CALL` of `MAX_IMAGE_BYTES` each, as base64.",
      },
    ),
    HTTPS_PROXY: matching(HTTP_URL, 'HTTPS_PROXY must be an http(s) URL', {
      meaning:
        "`http://[user:password@]proxy:3128` (or `https://`): the calls to `https://` provider URLs, every built-in provider's, go through this proxy, tunnelled with `CONNECT`, so the proxy sees the host and port only.",
    }),
    HTTP_PROXY: matching(HTTP_URL, 'HTTP_PROXY must be an http(s) URL', {
      meaning:
        'The proxy of the calls to `http://` provider URLs (a local OpenAI-compatible server, for example), forwarded as plain HTTP.',
    }),
    NO_PROXY: matching(
      /^[A-Za-z0-9.*:[\]_,\s-]{1,4096}$/,
      'NO_PROXY must be a comma-separated list of host names, domains (.example.com), host:port or *',
      {
        meaning:
          'Provider hosts reached directly, comma-separated: `host` (and its subdomains), `.example.com`, `*.example.com` (subdomains only), `host:port`, an IP address, or `*` for every host.',
      },
    ),
  },
  config: (values, env): LlmConfig => ({
    providers: {
      openai: { apiKey: values.OPENAI_API_KEY, baseUrl: values.OPENAI_BASE_URL },
      anthropic: { apiKey: values.ANTHROPIC_API_KEY, baseUrl: values.ANTHROPIC_BASE_URL },
      google: { apiKey: values.GOOGLE_GENERATIVE_AI_API_KEY, baseUrl: values.GOOGLE_BASE_URL },
    },
    modelsFile: values.MODELS_FILE,
    modelsFileContent: values.MODELS_FILE ? modelsFileOf(values.MODELS_FILE, env) : undefined,
    maxAnswerBytes: values.MAX_ANSWER_BYTES,
    egressProxy:
      values.HTTPS_PROXY || values.HTTP_PROXY
        ? { httpsProxy: values.HTTPS_PROXY, httpProxy: values.HTTP_PROXY, noProxy: values.NO_PROXY }
        : undefined,
  }),
});

function modelsFileOf(file: string, env: NodeJS.ProcessEnv): ModelsFileContent {
  try {
    return readModelsFile(file, env);
  } catch (error) {
    throw new ConfigError([(error as Error).message], (error as Error).message);
  }
}
