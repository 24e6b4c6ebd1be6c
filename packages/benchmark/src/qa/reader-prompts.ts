import { readerPrompts as registeredReaderPrompts } from '../benchmarks/benchmark-registry.js';
import type { ReaderPromptDefinition } from '../benchmarks/reader-prompt.js';

export type { ReaderPromptDefinition, ReaderPromptParts } from '../benchmarks/reader-prompt.js';

/**
 * The reader prompt styles, by `--reader-prompt` name: every benchmark's `readerPrompts`
 * (benchmarks/<name>/), merged by the registry. Adding a style is an entry in its benchmark's folder.
 */
export function readerPrompts(): Readonly<Record<string, ReaderPromptDefinition>> {
  return registeredReaderPrompts();
}

export type ReaderPromptStyle = string;

/** The definition of a style; an unknown name fails listing the known ones. */
export function readerPromptDefinition(name: string): ReaderPromptDefinition {
  const prompts = readerPrompts();
  if (!Object.hasOwn(prompts, name)) {
    throw new Error(`Unknown reader prompt "${name}"; known: ${Object.keys(prompts).join(', ')}.`);
  }
  return prompts[name]!;
}
