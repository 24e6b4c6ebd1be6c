/**
 * One run option: its flag, the config key it sets, its help text, and (when the run config
 * schema's default does not say it) what the help should call the default. Type, default, bounds
 * and choices come from the key's zod schema, so a preset and a flag are held to the same limits;
 * `cli/run-option-flags.ts` turns these into commander options. Each section of the config
 * (config/sections/) and each component (components/) declares its own.
 */
export type RunOptionDeclaration = {
  /** Commander flags, e.g. `-j, --concurrency <n>`; a boolean key set off by `--no-x` is `--no-x`. */
  readonly flags: string;
  readonly key: string;
  /** The section of `lme run --help` it is listed in (RUN_OPTION_GROUPS). */
  readonly group: RunOptionGroup;
  readonly help: string;
  /** The help's "default: …" when the schema has no default or its default reads badly. */
  readonly defaultHelp?: string;
  /** An environment variable that sets the key (below flags, above presets). */
  readonly env?: string;
  /** A boolean whose default is true also gets `--no-<name>` with this help. */
  readonly negatedHelp?: string;
  /** A list flag that may be given more than once (`--plugin a --plugin b`): the values add up. */
  readonly repeatable?: true;
};

/**
 * The sections of `lme run --help`, in the order they are shown, with their headings: `start`
 * holds the few flags most users need first.
 */
export const RUN_OPTION_GROUPS = {
  start: 'Start here:',
  data: 'Data and question selection:',
  retrieval: 'Retrieval (the memory system under test):',
  stages: 'Stages after retrieval:',
  qa: 'Question answering (reader and judge):',
  run: 'Run management:',
  output: 'Output and logging:',
} as const;

export type RunOptionGroup = keyof typeof RUN_OPTION_GROUPS;
