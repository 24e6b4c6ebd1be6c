import { createChatClient } from '@lme/search-core';
import { Command } from 'commander';
import { resolveOpenAiEndpoint } from '../config/openai-endpoints.js';
import { configFromEnvironment } from '../config/run-options.js';
import { parseRunSections } from '../config/run-sections.js';
import { createJudge } from '../qa/judge.js';
import { renderJudgeProbe, runJudgeProbe } from '../qa/judge-probe.js';
import { judgeRubrics } from '../qa/judge-rubrics.js';
import { judgeOf } from '../run/benchmark-defaults.js';
import { EXIT } from './exit-codes.js';
import { addRunOptions, configFromFlags } from './run-option-flags.js';

/** The run options `lme judge-probe` takes: the judge and its endpoint, as `lme run` declares them. */
const JUDGE_PROBE_KEYS = [
  'judge',
  'judgeModel',
  'judgeSamples',
  'judgeTemperature',
  'baseUrl',
  'judgeBaseUrl',
  'maxRetries',
  'timeoutMs',
  'cache',
  'cacheDir',
] as const;

/**
 * `lme judge-probe`: the built-in probe answers (vague but on topic, specific but wrong, right but
 * verbose, and right as a control) for a few real questions, graded by the configured judge,
 * with the acceptance rate of each kind. Exit 1 when no probe could be graded.
 */
export function judgeProbeCommand(): Command {
  return addRunOptions(
    new Command('judge-probe').description(
      'measure how lenient the configured judge is: acceptance of vague, wrong, verbose and right probe answers',
    ),
    JUDGE_PROBE_KEYS,
  )
    .option('--json', 'print the result as JSON (every probe answer and its label)')
    .addHelpText(
      'after',
      '\nExample:\n' +
        '  OPENAI_BASE_URL=http://127.0.0.1:8000/v1 lme judge-probe --judge-model my-judge\n' +
        `  lme judge-probe --judge ${Object.keys(judgeRubrics()).at(-1)} --judge-model gpt-4o-mini`,
    )
    .action(async (flags: { json?: boolean }, command: Command) => {
      const { qa, run } = parseRunSections({
        ...configFromEnvironment(process.env),
        ...configFromFlags(command),
      });
      const client = createChatClient({
        ...resolveOpenAiEndpoint(qa, 'judge'),
        ...(run.cache ? { cacheDir: run.cacheDir } : {}),
      });
      const judge = createJudge({
        client,
        model: qa.judgeModel,
        samples: qa.judgeSamples,
        temperature: qa.judgeTemperature,
        rubric: judgeOf(qa),
      });
      const result = await runJudgeProbe({ judge, rubric: judgeOf(qa) });
      process.stdout.write(flags.json ? `${JSON.stringify(result, null, 2)}\n` : renderJudgeProbe(result));
      if (result.kinds.every((kind) => kind.acceptance === null)) {
        const first = result.grades.find((grade) => grade.error)?.error ?? 'no reply';
        process.stderr.write(`lme judge-probe: no probe answer could be graded (first: ${first}).\n`);
        process.exitCode = EXIT.error;
      }
    });
}
