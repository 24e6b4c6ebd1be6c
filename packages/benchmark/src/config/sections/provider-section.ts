import { z } from 'zod';
import type { RunOptionDeclaration } from '../../components/option-declaration.js';
import { endpointUrl } from '../../components/setting-values.js';

/** The memory system under test (`--provider`) and how lme reaches an external one. */
export const PROVIDER_SHAPE = {
  /** The memory system under test: a name of the provider registry (providers/provider-registry.ts). */
  provider: z.string().min(1).default('pipeline'),
  /**
   * `--provider-option key=value`: the provider's own options as given (strings), parsed by its
   * descriptor's schema when the run starts.
   */
  providerOptions: z.record(z.string(), z.string()).optional(),
  /** `--provider http`: a server speaking docs/provider-protocol.md. */
  providerUrl: endpointUrl.optional(),
  /** Name of the environment variable holding the provider's auth header value (never the value). */
  providerAuthEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected an environment variable name')
    .optional(),
  providerAuthHeader: z.string().min(1).default('Authorization'),
  providerTimeoutMs: z.number().int().min(1).default(60_000),
  providerMaxRetries: z.number().int().min(0).max(20).default(3),
};

/** The flags of the provider section (config/run-options.ts lists every section's). */
export const PROVIDER_OPTIONS = [
  {
    flags: '--provider <name>',
    key: 'provider',
    group: 'retrieval',
    help: 'memory system under test (the providers and their options are listed below)',
  },
  {
    flags: '--provider-option <key=value>',
    key: 'providerOptions',
    group: 'retrieval',
    help: "one of the provider's own options (repeatable; listed below per provider)",
  },
  {
    flags: '--provider-url <url>',
    key: 'providerUrl',
    group: 'retrieval',
    help: 'with --provider http: base URL of a server speaking docs/provider-protocol.md',
  },
  {
    flags: '--provider-auth-env <name>',
    key: 'providerAuthEnv',
    group: 'retrieval',
    help: 'environment variable holding the provider auth header value (only its name is recorded)',
  },
  {
    flags: '--provider-auth-header <name>',
    key: 'providerAuthHeader',
    group: 'retrieval',
    help: 'header the --provider-auth-env value goes in',
  },
  {
    flags: '--provider-timeout <ms>',
    key: 'providerTimeoutMs',
    group: 'retrieval',
    help: 'timeout of one provider request',
  },
  {
    flags: '--provider-retries <n>',
    key: 'providerMaxRetries',
    group: 'retrieval',
    help: 'retries of a provider request after 429/5xx',
  },
] as const satisfies readonly RunOptionDeclaration[];

export type ProviderSection = z.output<z.ZodObject<typeof PROVIDER_SHAPE>>;
