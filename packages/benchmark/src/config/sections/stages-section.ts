import { z } from 'zod';
import type { OptionShapeOf } from '../../components/component.js';
import type { RunOptionDeclaration } from '../../components/option-declaration.js';
import type { RERANKERS } from '../../components/rerankers/reranker-registry.js';
import type { STAGES } from '../../components/stages/stage-registry.js';

/**
 * The o200k_base tokens every preset packs its context into (configs/presets/*.json
 * `contextBudget`); an external system's new run is measured at the same budget.
 */
export const PRESET_CONTEXT_BUDGET = 2000;

/**
 * What follows retrieval besides the stages of components/stages/ (each its own options there,
 * the reranker's included): the packed context.
 */
export const STAGES_SHAPE = {
  /**
   * Tokens (o200k_base) of the packed context `context.evidence_recall` is measured on; unset:
   * not measured (packing tokenizes the top documents, which the plain BM25 run should not pay).
   */
  contextBudget: z.number().int().min(1).optional(),
};

/** The flags of the stages section (config/run-options.ts lists every section's). */
export const STAGES_OPTIONS = [
  {
    flags: '--context-budget <tokens>',
    key: 'contextBudget',
    group: 'stages',
    help: 'measure context.evidence_recall: pack the top hits into this many o200k_base tokens',
    defaultHelp: 'off',
  },
] as const satisfies readonly RunOptionDeclaration[];

export type StagesSection = z.output<z.ZodObject<typeof STAGES_SHAPE>>;

/** The reranker families' own options (components/rerankers/: `--rerank-depth`, `--rerank-model`, `--rerank-key-env`), as a resolved config holds them. */
export type RerankerOptionValues = z.output<z.ZodObject<OptionShapeOf<typeof RERANKERS>>>;

/** The stages' own options (components/stages/: `--summarizer`, `--contextual`, `--dedup`, `--mmr`, `--reranker`, ...), as a resolved config holds them. */
export type StageOptionValues = z.output<z.ZodObject<OptionShapeOf<typeof STAGES>>>;
