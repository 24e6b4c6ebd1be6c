import { Command, Option } from 'commander';
import { evaluateGate, parseBound, type Threshold } from '../analysis/gate.js';
import { type GateSpec, mergeGateSpecs, readGateFile } from '../analysis/gate-file.js';
import { readSummaryOrRun } from '../analysis/read-run.js';
import { gateResultJson, renderGateResult } from '../analysis/render-gate-result.js';
import { listFlag } from './compare-command.js';
import { log } from './logger.js';
import { integerFlag, numberFlag } from './parse-flag.js';

/** Exit code of a failed gate (`EXIT.gateFailed`, cli/exit-codes.ts). */
const GATE_FAILED = 3;

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

type GateFlags = {
  min?: string[];
  max?: string[];
  baseline?: string;
  maxDrop?: number;
  perType?: boolean;
  metrics?: string[];
  config?: string;
  allowErrors?: number;
  allowSubset?: boolean;
  allowPartial?: boolean;
  allowMissingMetrics?: boolean;
  onlyFailures?: boolean;
  format: 'text' | 'json';
};

/** What the gate prints: its text report, or one JSON object (gateResultJson) for CI annotations. */
function writeJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

export function gateCommand(): Command {
  return new Command('gate')
    .description(
      'check a run against thresholds and a baseline; exit code 3 when a check fails, a question failed, no check ran or the questions differ from the baseline',
    )
    .argument('<run>', 'results folder (or its summary.json)')
    .option(
      '--min <expression>',
      "lower bound, repeatable: '[<question type>:]<metric>>=<number>' (or >)",
      collect,
    )
    .option(
      '--max <expression>',
      "upper bound, repeatable: '[<question type>:]<metric><=<number>' (or <)",
      collect,
    )
    .option('--baseline <run|summary.json>', 'run folder or summary.json to compare with')
    .option('--max-drop <x>', 'largest allowed absolute drop from the baseline (default: 0)', numberFlag(0))
    .option('--per-type', 'also check the drop from the baseline per question type')
    .option(
      '--metrics <m1,m2>',
      'metrics the baseline check covers (default: all score metrics both have)',
      listFlag,
    )
    .option(
      '--allow-errors <n>',
      'pass with up to n failed questions (default 0: any failed question fails the gate, as means exclude them)',
      integerFlag(0),
    )
    .option(
      '--allow-subset',
      "pass although the run's questions differ from the baseline's (by id for run folders, else by count per type)",
    )
    .option(
      '--allow-partial',
      'pass a run that stopped before its last question (--max-cost, a signal, a full disk); by default a partial run fails the gate',
    )
    .option(
      '--allow-missing-metrics',
      'skip (and report as SKIP) the checks of metrics the run lacks; by default a metric a threshold or the baseline names that the run lacks fails its check',
    )
    .option('--config <file.json>', 'gate file (configs/gates/<name>.json); flags override it')
    .option(
      '--only-failures',
      'print only the failed checks (and the verdict, which counts them all); with --format json, only they are listed',
    )
    .addOption(
      new Option(
        '--format <format>',
        'text: one line per check and the verdict; json: one object (passed, exit_code, each check with group, metric, value, n, bound or baseline, problems) for CI annotations',
      )
        .choices(['text', 'json'])
        .default('text'),
    )
    .addHelpText(
      'after',
      "\nExamples:\n  lme gate results/x --min 'session.recall_all@5>=0.85' --min 'multi-session:session.recall_all@5>=0.7'\n  lme gate results/x --baseline results/baselines/ci-s-subset/summary.json --max-drop 0.02 --per-type\n  lme gate results/x --config configs/gates/example.json\n  lme gate results/x --config configs/gates/ci.json --only-failures",
    )
    .action((runPath: string, flags: GateFlags) => {
      const thresholds: Threshold[] = [
        ...(flags.min ?? []).map((expression) => parseBound(expression, 'min')),
        ...(flags.max ?? []).map((expression) => parseBound(expression, 'max')),
      ];
      const fromFlags: Partial<GateSpec> = { thresholds };
      if (flags.baseline !== undefined) fromFlags.baseline = flags.baseline;
      if (flags.maxDrop !== undefined) fromFlags.maxDrop = flags.maxDrop;
      if (flags.perType !== undefined) fromFlags.perType = flags.perType;
      if (flags.metrics !== undefined) fromFlags.metrics = flags.metrics;
      if (flags.allowErrors !== undefined) fromFlags.allowErrors = flags.allowErrors;
      if (flags.allowSubset !== undefined) fromFlags.allowSubset = flags.allowSubset;
      if (flags.allowMissingMetrics !== undefined) fromFlags.allowMissingMetrics = flags.allowMissingMetrics;
      const spec =
        flags.config === undefined
          ? mergeGateSpecs({ thresholds: [] }, fromFlags)
          : mergeGateSpecs(readGateFile(flags.config), fromFlags);
      if (spec.maxDrop !== undefined && spec.baseline === undefined) {
        throw new Error('--max-drop needs a --baseline to measure the drop from.');
      }
      if (spec.perType && spec.baseline === undefined) {
        throw new Error(
          '--per-type needs a --baseline: it checks drops from the baseline per question type.',
        );
      }
      if (spec.thresholds.length === 0 && spec.baseline === undefined) {
        // A gate that checks nothing fails as a gate (exit 3, as its help says), not as bad input.
        const problem = 'The gate has nothing to check: give --min, --max, --baseline or a --config file.';
        process.stderr.write(`lme: ${problem}\n`);
        if (flags.format === 'json') {
          writeJson({
            passed: false,
            exit_code: GATE_FAILED,
            run: runPath,
            baseline: null,
            checks: [],
            failed_checks: 0,
            problems: [problem],
            warnings: [],
            allow_missing_metrics: spec.allowMissingMetrics ?? false,
          });
        }
        process.exitCode = GATE_FAILED;
        return;
      }
      const run = readSummaryOrRun(runPath);
      const baseline = spec.baseline === undefined ? undefined : readSummaryOrRun(spec.baseline);
      const result = evaluateGate({
        summary: run.summary,
        summaryPath: run.path,
        ...(run.run === undefined ? {} : { run: run.run }),
        thresholds: spec.thresholds,
        ...(baseline === undefined ? {} : { baseline }),
        ...(spec.maxDrop === undefined ? {} : { maxDrop: spec.maxDrop }),
        perType: spec.perType ?? false,
        ...(spec.metrics === undefined ? {} : { metrics: spec.metrics }),
        ...(spec.allowErrors === undefined ? {} : { allowErrors: spec.allowErrors }),
        ...(spec.allowSubset === undefined ? {} : { allowSubset: spec.allowSubset }),
        allowPartial: flags.allowPartial ?? false,
        allowMissingMetrics: spec.allowMissingMetrics ?? false,
      });
      for (const warning of [...(run.run?.warnings ?? []), ...result.warnings]) {
        log.warn(warning);
      }
      const exitCode = result.passed ? 0 : GATE_FAILED;
      if (flags.format === 'json') {
        writeJson(
          gateResultJson(result, {
            run: run.path,
            ...(baseline === undefined ? {} : { baseline: baseline.path }),
            exitCode,
            onlyFailures: flags.onlyFailures ?? false,
          }),
        );
      } else {
        const header = `gate ${run.path}${baseline === undefined ? '' : ` against baseline ${baseline.path}`}\n\n`;
        process.stdout.write(
          header + renderGateResult(result, { onlyFailures: flags.onlyFailures ?? false }),
        );
      }
      if (!result.passed) process.exitCode = exitCode;
    });
}
