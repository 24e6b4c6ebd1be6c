/**
 * `--shard-from-env <VAR[/n]>`: the shard a process runs, read from the variable a job engine sets
 * in each of a job's copies (docs/scale-out.md). The engines below are known: whether their index
 * counts from 0 or 1, and the variable holding the count when they set one. Any other variable is
 * read as a 0-based index (as Kubernetes, AWS Batch and GitHub Actions' `strategy.job-index` count),
 * and then needs the count after a slash.
 */
type EngineVariable = { engine: string; base: 0 | 1; countVariable?: string };

const ENGINE_VARIABLES = {
  JOB_COMPLETION_INDEX: { engine: 'a Kubernetes Indexed Job', base: 0 },
  AWS_BATCH_JOB_ARRAY_INDEX: { engine: 'an AWS Batch array job', base: 0 },
  CI_NODE_INDEX: { engine: 'a GitLab CI parallel job', base: 1, countVariable: 'CI_NODE_TOTAL' },
  BUILDKITE_PARALLEL_JOB: {
    engine: 'a Buildkite parallel step',
    base: 0,
    countVariable: 'BUILDKITE_PARALLEL_JOB_COUNT',
  },
} as const satisfies Record<string, EngineVariable>;

const DEFAULT_ENGINE: EngineVariable = { engine: 'the job engine', base: 0 };

function engineOf(name: string): EngineVariable {
  return (ENGINE_VARIABLES as Record<string, EngineVariable>)[name] ?? DEFAULT_ENGINE;
}

/** A whole number written in decimal digits that a number holds exactly, else undefined. */
function wholeNumber(text: string): number | undefined {
  const value = Number(text.trim());
  return /^\d+$/.test(text.trim()) && Number.isSafeInteger(value) ? value : undefined;
}

/**
 * The `i/n` shard (1-based, as `--shard` takes it) that `spec` (`VAR` or `VAR/n`) names in `env`.
 * Throws one sentence naming the flag and the variable when the variable is unset, not a whole
 * number, or out of range, or when the count is missing.
 */
export function shardFromEnvironment(spec: string, env: NodeJS.ProcessEnv): string {
  const match = /^([A-Za-z_][A-Za-z0-9_]*)(?:\/(.*))?$/.exec(spec.trim());
  if (match === null) {
    throw new Error(
      `--shard-from-env expects a variable name, optionally with the shard count after a slash (such as JOB_COMPLETION_INDEX/4), not "${spec}".`,
    );
  }
  const name = match[1]!;
  const engine = engineOf(name);
  let count: number | undefined;
  if (match[2] !== undefined) {
    count = wholeNumber(match[2]);
    if (count === undefined || count < 1)
      throw new Error(
        `--shard-from-env ${spec}: the shard count after the slash must be a whole number from 1 to ${Number.MAX_SAFE_INTEGER}.`,
      );
  } else if (engine.countVariable !== undefined) {
    const total = env[engine.countVariable];
    count = total === undefined ? undefined : wholeNumber(total);
    if (count === undefined || count < 1) {
      throw new Error(
        `--shard-from-env ${name}: ${engine.countVariable} is ${total === undefined ? 'not set' : `"${total}", not a whole number from 1`}; give the count as ${name}/<n>.`,
      );
    }
  } else {
    throw new Error(
      `--shard-from-env ${name} needs the shard count after a slash, such as ${name}/4 (${engine.engine} does not say how many shards there are).`,
    );
  }
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') {
    throw new Error(
      `--shard-from-env ${spec}: the variable ${name} is not set in this process; run it as one of ${engine.engine}'s copies, or pass --shard i/n.`,
    );
  }
  const value = wholeNumber(raw);
  if (value === undefined) {
    throw new Error(
      `--shard-from-env ${spec}: ${name} is "${raw.slice(0, 40)}${raw.length > 40 ? '…' : ''}", not a whole number from 0 to ${Number.MAX_SAFE_INTEGER}.`,
    );
  }
  const first = engine.base;
  const last = count - 1 + engine.base;
  if (value < first || value > last) {
    throw new Error(
      `--shard-from-env ${spec}: ${name} is ${value}, outside ${first}..${last} for ${count} shards (${name} counts from ${first}).`,
    );
  }
  return `${value - engine.base + 1}/${count}`;
}
