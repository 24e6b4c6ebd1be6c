import { optionDeclarations } from '../components/component.js';
import { EMBEDDERS } from '../components/embedders/embedder-registry.js';
import type { RunOptionDeclaration } from '../components/option-declaration.js';
import { RERANKERS } from '../components/rerankers/reranker-registry.js';
import { RETRIEVERS } from '../components/retrievers/retriever-registry.js';
import { STAGES } from '../components/stages/stage-registry.js';
import type { RunConfigInput } from './run-config.js';
import { DATA_OPTIONS } from './sections/data-section.js';
import { EMBEDDING_OPTIONS } from './sections/embedding-section.js';
import { PROVIDER_OPTIONS } from './sections/provider-section.js';
import { QA_OPTIONS } from './sections/qa-section.js';
import { RETRIEVAL_OPTIONS } from './sections/retrieval-section.js';
import { ROUTES_OPTIONS } from './sections/routes-section.js';
import { RUN_SECTION_OPTIONS } from './sections/run-section.js';
import { STAGES_OPTIONS } from './sections/stages-section.js';

export {
  RUN_OPTION_GROUPS,
  type RunOptionDeclaration,
  type RunOptionGroup,
} from '../components/option-declaration.js';

/**
 * Every run option, declared once: by the config section that owns its key (config/sections/) or
 * by the component that owns it (components/: a retriever's, an embedder's or a reranker's own
 * options). `lme run --help` lists them by `group`, in this order.
 */
export const RUN_OPTIONS: readonly RunOptionDeclaration[] = [
  ...RUN_SECTION_OPTIONS,
  ...DATA_OPTIONS,
  ...PROVIDER_OPTIONS,
  ...RETRIEVAL_OPTIONS,
  ...optionDeclarations(RETRIEVERS),
  ...EMBEDDING_OPTIONS,
  ...optionDeclarations(EMBEDDERS),
  ...ROUTES_OPTIONS,
  ...optionDeclarations(STAGES),
  ...STAGES_OPTIONS,
  ...optionDeclarations(RERANKERS),
  ...QA_OPTIONS,
];

/** `-j, --concurrency <n>` → `concurrency`; `--no-cache` → `cache` (commander's attribute name). */
export function attributeName(flags: string): string {
  const long = /--([a-z0-9-]+)/.exec(flags)?.[1] ?? flags;
  const name = long.startsWith('no-') ? long.slice(3) : long;
  return name.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

/** `-j, --concurrency <n>` → `--concurrency` (a `--no-x` flag keeps its `no-`). */
export function longFlag(flags: string): string {
  return /--[a-z0-9-]+/.exec(flags)?.[0] ?? flags;
}

/** The declaration of one config key. */
export function runOptionOf(key: string): RunOptionDeclaration | undefined {
  return (RUN_OPTIONS as readonly RunOptionDeclaration[]).find((option) => option.key === key);
}

/** A config key as the user wrote it: `topSessions` → `--top-sessions`; unknown keys stay as they are. */
export function flagOfKey(key: string): string {
  const option = runOptionOf(key);
  return option ? longFlag(option.flags).replace(/^--no-/, '--') : key;
}

/**
 * The config keys the environment sets, read here and nowhere else in the run config. Flags
 * override them; they override presets.
 */
export function configFromEnvironment(environment: NodeJS.ProcessEnv): RunConfigInput {
  const fromEnvironment: Record<string, string> = {};
  for (const option of RUN_OPTIONS as readonly RunOptionDeclaration[]) {
    const value = option.env ? environment[option.env] : undefined;
    if (value) fromEnvironment[option.key] = value;
  }
  return fromEnvironment as RunConfigInput;
}
