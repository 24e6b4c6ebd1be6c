import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadLocomo } from '../../benchmarks/locomo/load-locomo.js';
import type { LongMemEvalRecord } from '../../benchmarks/longmemeval-record.js';
import type { StageDescriptor } from '../../components/stages/stage-descriptor.js';
import { STAGES, selectedStages } from '../../components/stages/stage-registry.js';
import type { RunConfig } from '../../config/run-config.js';
import { groupConfig, parseRunConfig } from '../../config/run-sections.js';
import { PROVIDERS } from '../../providers/provider-registry.js';
import { REPO_ROOT } from '../../testing/run-cli.js';
import { planRun } from './plan-run.js';
import { renderPlan } from './render-plan.js';

/** The plan of a resolved config, its embedders grouped as the run groups them. */
const planOf = (config: RunConfig, records: readonly LongMemEvalRecord[]) =>
  planRun(groupConfig(config), records);

const fixture = resolve(REPO_ROOT, 'datasets/fixtures/locomo-mini.json');

describe('planRun', () => {
  it('lists the stages the pipeline will run, in their declared order, and none under an external system', async () => {
    const { records } = await loadLocomo(fixture);
    const stages = Object.values(STAGES) as StageDescriptor[];
    const allOn = Object.fromEntries(stages.map((stage) => [stage.switch, stage.switchOn?.value ?? true]));
    const config = parseRunConfig({ dataset: fixture, convention: 'evidence', cache: false, ...allOn });
    const plan = await planOf(config, records);
    // The stages after retrieval: those not at index time, each as its provenance lists it.
    const expected = selectedStages(config)
      .filter(({ descriptor }) => descriptor.capabilities.at !== 'index')
      .flatMap(({ descriptor, options }) => descriptor.provenance(options) ?? []);
    expect(expected.length).toBeGreaterThan(1);
    expect(plan.stages).toEqual(expected);
    expect(renderPlan(plan)).toContain(`stages after retrieval: ${expected.join(', ')}\n`);
    const [external] = Object.entries(PROVIDERS).find(([, provider]) => provider.capabilities.external)!;
    const elsewhere = await planOf({ ...config, provider: external as never }, records);
    expect(elsewhere.stages).toBeUndefined();
  });

  it('counts the Chain-of-Note calls of --reader-notes: one per history session, max_tokens 500', async () => {
    const { records } = await loadLocomo(fixture);
    const config = (readerNotes: boolean) =>
      parseRunConfig({
        dataset: fixture,
        convention: 'evidence',
        provider: 'full-context',
        readerModel: 'gpt-4o-mini',
        historyFormat: 'json',
        judge: 'locomo-llm',
        judgeModel: 'gpt-4o-mini',
        readerNotes,
      });
    const sessions = records.reduce((sum, record) => sum + record.haystack_sessions.length, 0);
    const plan = await planOf(config(true), records);
    const notes = plan.llm.find((role) => role.role === 'reader-notes');
    expect(notes).toMatchObject({ model: 'gpt-4o-mini', calls: sessions, completionTokens: sessions * 500 });
    expect(notes!.promptTokens).toBeGreaterThan(sessions * 50);
    expect(renderPlan(plan)).toMatch(
      new RegExp(
        `^LLM reader-notes \\(gpt-4o-mini\\): ${sessions} calls, ~[\\d,]+ prompt \\+ ≤${(sessions * 500).toLocaleString('en-US')} completion tokens`,
        'm',
      ),
    );
    // The notes add to the cost; without --reader-notes there is no such line.
    const without = await planOf(config(false), records);
    expect(without.llm.map((role) => role.role)).toEqual(['reader', 'judge']);
    expect(plan.costUsd!).toBeGreaterThan(without.costUsd!);
  });

  it('counts the session summaries and the per-document contexts of --contextual llm', async () => {
    const { records } = await loadLocomo(fixture);
    const config = parseRunConfig({
      dataset: fixture,
      convention: 'evidence',
      contextual: 'llm',
      summarizer: 'llm',
      summarizerModel: 'gpt-4o-mini',
      contextualModel: 'gpt-4o-mini',
    });
    const plan = await planOf(config, records);
    const sessions = new Set(records.flatMap((record) => record.haystack_session_ids)).size;
    expect(plan.llm.find((role) => role.role === 'summarizer')).toMatchObject({ calls: sessions });
    expect(plan.llm.find((role) => role.role === 'contextual')).toMatchObject({
      model: 'gpt-4o-mini',
      calls: plan.documents,
      completionTokens: plan.documents * 150,
    });
    expect(plan.costUsd!).toBeGreaterThan(0);
  });

  it("plans the configured judge: Mem0's LoCoMo judge grades categories 1-4 only, max_tokens 512", async () => {
    const { records } = await loadLocomo(fixture);
    const plan = await planOf(
      parseRunConfig({
        dataset: fixture,
        convention: 'evidence',
        provider: 'full-context',
        readerModel: 'gpt-4o-mini',
        judge: 'locomo-llm',
        judgeModel: 'gpt-4o-mini',
      }),
      records,
    );
    // The fixture: 7 questions, 2 adversarial.
    expect(plan.llm.find((role) => role.role === 'judge')).toMatchObject({
      calls: 5,
      completionTokens: 5 * 512,
    });
    expect(plan.notes).toContain(
      "judge locomo-llm grades 5 of 7 questions (Mem0's published LoCoMo judge (ACCURACY_PROMPT, categories 1-4; adversarial excluded)).",
    );
  });
});

describe('the plan of a run on an external system', () => {
  it('counts one ingest per distinct haystack, every role sent, or one per question when it starts fresh', async () => {
    const { records } = await loadLocomo(fixture);
    const external = parseRunConfig({
      provider: 'http',
      providerUrl: 'http://127.0.0.1:1',
      indexRoles: 'all',
    });
    const turns = records[0]!.haystack_sessions.reduce((sum, session) => sum + session.length, 0);
    const shared = await planOf(external, records);
    expect(shared.ingest).toEqual({
      ingests: 1,
      sessions: records[0]!.haystack_sessions.length,
      turns,
      roles: 'all',
      fresh: false,
    });
    expect(renderPlan(shared)).toContain(
      `ingests into the external system: 1 for ${records.length} questions (${records[0]!.haystack_sessions.length} sessions, ${turns} turns sent, every role; one per distinct haystack)`,
    );
    const fresh = await planOf({ ...external, providerOptions: { 'fresh-per-question': 'true' } }, records);
    expect(fresh.ingest).toMatchObject({ ingests: records.length, fresh: true });
    expect((await planOf(parseRunConfig({}), records)).ingest).toBeUndefined();
  });
});
