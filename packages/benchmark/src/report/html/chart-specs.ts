import type { ReportModel } from './report-model.js';

/** A Vega-Lite spec: plain JSON that vega-embed renders and Altair (`alt.Chart.from_dict`) reads. */
export type VegaLiteSpec = Record<string, unknown>;

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

/**
 * The run legend: one run a line under the chart, each name in full (Vega-Lite cuts a legend label
 * at 160 px by default, which left ablation variants sharing a long prefix indistinguishable).
 */
const RUN_LEGEND = { orient: 'bottom', direction: 'vertical', title: null, labelLimit: 0 } as const;

function colourScale(model: ReportModel) {
  return { domain: model.runs.map((run) => run.label), range: model.runs.map((run) => run.colour) };
}

/**
 * One grouped bar chart per headline metric: a bar per category and run (runs side by side in
 * their colours), the question count n printed on each bar and in its tooltip.
 */
export function metricBarSpecs(model: ReportModel): { metric: string; spec: VegaLiteSpec }[] {
  const runs = model.runs.map((run) => run.label);
  return model.metrics.map((metric) => {
    const values = model.bars.filter((row) => row.metric === metric);
    const x = {
      field: 'category',
      type: 'nominal',
      sort: model.categories,
      title: null,
      axis: { labelAngle: -25, labelLimit: 160 },
    };
    const xOffset = { field: 'run', type: 'nominal', sort: runs };
    return {
      metric,
      spec: {
        $schema: SCHEMA,
        title: { text: metric, anchor: 'start' },
        description: `${metric} per question type and run; n = questions in the mean`,
        data: { values },
        width: model.categories.length * (18 * runs.length + 14),
        height: 220,
        encoding: {
          x,
          xOffset,
          y: { field: 'value', type: 'quantitative', scale: { domain: [0, 1] }, title: metric },
        },
        layer: [
          {
            mark: { type: 'bar' },
            encoding: {
              color: {
                field: 'run',
                type: 'nominal',
                scale: colourScale(model),
                legend: RUN_LEGEND,
              },
              tooltip: [
                { field: 'run', type: 'nominal' },
                { field: 'category', type: 'nominal' },
                { field: 'value', type: 'quantitative', format: '.4f' },
                { field: 'n', type: 'quantitative' },
              ],
            },
          },
          {
            mark: { type: 'text', dy: -4, fontSize: 8, color: '#555', baseline: 'bottom' },
            encoding: { text: { field: 'n', type: 'quantitative', format: 'd' } },
          },
        ],
      },
    };
  });
}

/** Overall recall@k against k (log scale), a line per run and a dash per recall kind. */
export function recallCurveSpec(model: ReportModel): VegaLiteSpec {
  return {
    $schema: SCHEMA,
    title: {
      text: `overall recall@k (${model.curve[0]?.metric.split('.')[0] ?? 'session'} level)`,
      anchor: 'start',
    },
    data: { values: model.curve },
    width: 420,
    height: 240,
    mark: { type: 'line', point: true },
    encoding: {
      x: {
        field: 'k',
        type: 'quantitative',
        scale: { type: 'log', domain: [1, 50] },
        axis: { values: [1, 3, 5, 10, 30, 50] },
        title: 'k',
      },
      y: { field: 'value', type: 'quantitative', scale: { domain: [0, 1] }, title: 'recall' },
      color: {
        field: 'run',
        type: 'nominal',
        scale: colourScale(model),
        legend: RUN_LEGEND,
      },
      strokeDash: {
        field: 'metric',
        type: 'nominal',
        legend: { title: null, symbolType: 'stroke', symbolStrokeWidth: 2, labelLimit: 0 },
      },
      tooltip: [
        { field: 'run', type: 'nominal' },
        { field: 'metric', type: 'nominal' },
        { field: 'k', type: 'quantitative' },
        { field: 'value', type: 'quantitative', format: '.4f' },
      ],
    },
  };
}
