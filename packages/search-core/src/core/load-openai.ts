import { createRequire } from 'node:module';
import type OpenAI from 'openai';

const require = createRequire(import.meta.url);
let openAiClass: typeof OpenAI | undefined;

/**
 * The `openai` package's client class, loaded on first use: the package is about 150 modules, and
 * `lme --help`, BM25 runs and everything else that never calls an OpenAI endpoint skip it.
 */
export function loadOpenAi(): typeof OpenAI {
  openAiClass ??= (require('openai') as { OpenAI: typeof OpenAI }).OpenAI;
  return openAiClass;
}
