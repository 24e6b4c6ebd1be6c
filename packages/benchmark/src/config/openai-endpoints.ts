import { addSecret, checkEndpointUrl, type SECRET_VARIABLES } from './secrets.js';
import type { QaSection } from './sections/qa-section.js';

/**
 * Who calls an OpenAI-compatible endpoint: the QA reader and judge (each with its own optional
 * endpoint and key), or the pipeline (OpenAI embedder, LLM summaries, contextual chunks).
 */
export type OpenAiRole = 'reader' | 'judge' | 'pipeline';

/** Everything an OpenAI client of search-core takes, resolved; search-core never reads the environment. */
export type OpenAiEndpoint = {
  /** Undefined: the OpenAI API. */
  baseURL?: string;
  apiKey?: string;
  maxRetries: number;
  timeoutMs: number;
};

const ROLE_ENDPOINTS = {
  reader: { key: 'readerBaseUrl', flag: '--reader-base-url', keyVariable: 'LME_READER_API_KEY' },
  judge: { key: 'judgeBaseUrl', flag: '--judge-base-url', keyVariable: 'LME_JUDGE_API_KEY' },
  pipeline: { key: undefined, flag: undefined, keyVariable: undefined },
  // Each key variable must be one of SECRET_VARIABLES (checked by the type), so its value is redacted.
} as const satisfies Record<
  OpenAiRole,
  { key?: keyof QaSection; flag?: string; keyVariable?: (typeof SECRET_VARIABLES)[number] }
>;

/** The environment variables that may hold a role's key, in the order they are read. */
export function apiKeyVariables(role: OpenAiRole): string[] {
  const own = ROLE_ENDPOINTS[role].keyVariable;
  return own ? [own, 'OPENAI_API_KEY'] : ['OPENAI_API_KEY'];
}

/** The QA section's endpoint settings, which every OpenAI-compatible client of a run reads. */
export type EndpointSettings = Pick<
  QaSection,
  'baseUrl' | 'readerBaseUrl' | 'judgeBaseUrl' | 'maxRetries' | 'timeoutMs'
>;

/** The base URL a role uses and the flag or variable that set it; undefined: the OpenAI API. */
function chosenBaseUrl(
  config: EndpointSettings,
  role: OpenAiRole,
  environment: Readonly<Record<string, string | undefined>>,
): { url: string; source: string } | undefined {
  const spec = ROLE_ENDPOINTS[role];
  const candidates: [string | undefined, string][] = [
    [spec.key ? config[spec.key] : undefined, spec.flag ?? ''],
    [config.baseUrl, '--base-url'],
    [environment.OPENAI_BASE_URL || undefined, 'OPENAI_BASE_URL'],
  ];
  const chosen = candidates.find(([value]) => value !== undefined);
  return chosen ? { url: chosen[0]!, source: chosen[1] } : undefined;
}

/** Where a role's base URL comes from (`--reader-base-url`, `--base-url`, `OPENAI_BASE_URL`), for messages. */
export function endpointSource(
  config: EndpointSettings,
  role: OpenAiRole,
  environment: Readonly<Record<string, string | undefined>> = process.env,
): string {
  return chosenBaseUrl(config, role, environment)?.source ?? 'the default OpenAI API';
}

/**
 * The one place the OpenAI settings are read from the environment. Endpoint: the role's flag
 * (`--reader-base-url`, `--judge-base-url`), else `--base-url`, else `OPENAI_BASE_URL`, else the
 * OpenAI API; it is checked (no credentials, no query string) with its source named. Key: the
 * role's variable (`LME_READER_API_KEY`, `LME_JUDGE_API_KEY`), else `OPENAI_API_KEY`; it is added
 * to the secrets redacted from every output. Retries and timeout: `--max-retries`, `--timeout`.
 */
export function resolveOpenAiEndpoint(
  config: EndpointSettings,
  role: OpenAiRole,
  environment: Readonly<Record<string, string | undefined>> = process.env,
): OpenAiEndpoint {
  const chosen = chosenBaseUrl(config, role, environment);
  const apiKey = apiKeyVariables(role)
    .map((name) => environment[name])
    .find((value) => value);
  addSecret(apiKey);
  const endpoint: OpenAiEndpoint = { maxRetries: config.maxRetries, timeoutMs: config.timeoutMs };
  if (chosen) endpoint.baseURL = checkEndpointUrl(chosen.url, chosen.source);
  if (apiKey) endpoint.apiKey = apiKey;
  return endpoint;
}
