import { describe, expect, it } from 'vitest';
import { metricBarSpecs, recallCurveSpec, type VegaLiteSpec } from './chart-specs.js';
import type { ReportModel } from './report-model.js';

// Two ablation variants whose names share their first 60 characters: a legend that cuts labels
// (Vega-Lite's default, 160 px) shows them as the same run.
const VARIANTS = [
  'session-aware-true_top-sessions-5_turns-per-session-3_dense-gap-0.2',
  'session-aware-true_top-sessions-5_turns-per-session-3_dense-gap-0.4',
];

const model = {
  runs: VARIANTS.map((label, index) => ({ label, colour: index === 0 ? '#4e79a7' : '#f28e2b' })),
  categories: ['multi-session', 'overall'],
  metrics: ['session.recall_all@5'],
  bars: VARIANTS.flatMap((run, index) =>
    ['multi-session', 'overall'].map((category) => ({
      run,
      category,
      metric: 'session.recall_all@5',
      value: 0.5 + index / 10,
      n: 10,
    })),
  ),
  curve: VARIANTS.flatMap((run) =>
    [1, 5, 10].map((k) => ({ run, metric: `session.recall_any@${k}`, k, value: k / 10 })),
  ),
} as unknown as ReportModel;

/** The texts of the chart as Vega draws it (headless, no browser): axis and legend labels. */
async function drawnTexts(spec: VegaLiteSpec): Promise<string[]> {
  const vega = await import('vega');
  const vegaLite = await import('vega-lite');
  const compiled = vegaLite.compile(spec as unknown as Parameters<typeof vegaLite.compile>[0]).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((match) => match[1]!);
}

describe('the HTML report charts', () => {
  it('show every run name in full in the legends, so variants can be told apart', async () => {
    for (const spec of [metricBarSpecs(model)[0]!.spec, recallCurveSpec(model)]) {
      const texts = await drawnTexts(spec);
      for (const variant of VARIANTS) expect(texts).toContain(variant);
      expect(texts.filter((text) => text.endsWith('…'))).toEqual([]);
    }
  });
});
