import { renderIngestPlan } from './plan-ingest.js';
import type { RunPlan } from './plan-run.js';

/** The plan as printed by `lme run --dry-run`. */
export function renderPlan(plan: RunPlan): string {
  const lines = [
    `questions: ${plan.questions} (${Object.entries(plan.byType)
      .map(([type, count]) => `${type} ${count}`)
      .join(', ')}; ${plan.abstention} abstention)`,
    `documents to index: ${plan.documents}`,
  ];
  if (plan.ingest) lines.push(renderIngestPlan(plan.ingest, plan.questions));
  if (plan.stages) lines.push(`stages after retrieval: ${plan.stages.join(', ')}`);
  if (plan.embedding) {
    const { embedder, distinctTexts, cached, queries, queriesCached } = plan.embedding;
    lines.push(
      `texts to embed with ${embedder}: ${distinctTexts} distinct, ${cached} cached, ${distinctTexts - cached} new; ` +
        `questions: ${queries}, ${queriesCached} cached`,
    );
  } else {
    lines.push('texts to embed: none (no dense route)');
  }
  if (plan.llm.length === 0) lines.push('LLM calls: none (no --reader-model; retrieval metrics only)');
  for (const role of plan.llm) {
    lines.push(
      `LLM ${role.role} (${role.model}): ${role.calls} calls, ~${role.promptTokens.toLocaleString('en-US')} prompt + ` +
        `≤${role.completionTokens.toLocaleString('en-US')} completion tokens, ` +
        (role.costUsd === null
          ? 'cost unknown (no price for the model in configs/prices.json)'
          : `~$${role.costUsd.toFixed(2)}`),
    );
  }
  if (plan.llm.length > 0) {
    lines.push(
      `estimated cost: ${plan.costUsd === null ? 'unknown (a model has no price)' : `~$${plan.costUsd.toFixed(2)} at most, before cache hits`}`,
    );
  }
  for (const note of plan.notes) lines.push(`note: ${note}`);
  return `${lines.join('\n')}\n`;
}
