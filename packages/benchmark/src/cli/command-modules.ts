import type { Command } from 'commander';

/**
 * Each command of `lme`: its module, loaded when it is asked for (`lme runs` or `lme gate` in CI
 * need not load the pipeline, the providers and the models), and whether it takes the run options
 * (`addRunOptions`): those load `--plugin` files before they are built, since their flags and the
 * run config come from the registries the plugins add to. command-modules.test.ts checks the mark
 * against the built commands.
 */
export type CommandModule = {
  readonly load: () => Promise<Command>;
  readonly runOptions?: true;
};

export const COMMAND_MODULES: Readonly<Record<string, CommandModule>> = {
  run: { load: async () => (await import('./run-command.js')).runCommand(), runOptions: true },
  datasets: { load: async () => (await import('./datasets-command.js')).datasetsCommand() },
  presets: { load: async () => (await import('./presets-command.js')).presetsCommand() },
  providers: {
    load: async () => (await import('./providers-command.js')).providersCommand(),
    runOptions: true,
  },
  models: { load: async () => (await import('./models-command.js')).modelsCommand() },
  ablate: { load: async () => (await import('./ablate-command.js')).ablateCommand(), runOptions: true },
  versus: { load: async () => (await import('./versus-command.js')).versusCommand(), runOptions: true },
  cache: { load: async () => (await import('./cache-command.js')).cacheCommand() },
  qdrant: { load: async () => (await import('./qdrant-command.js')).qdrantCommand() },
  bridges: { load: async () => (await import('./bridges-command.js')).bridgesCommand() },
  compare: { load: async () => (await import('./compare-command.js')).compareCommand() },
  gate: { load: async () => (await import('./gate-command.js')).gateCommand() },
  merge: { load: async () => (await import('./merge-command.js')).mergeCommand() },
  report: { load: async () => (await import('./report-command.js')).reportCommand() },
  runs: { load: async () => (await import('./runs-command.js')).runsCommand() },
  explain: { load: async () => (await import('./explain-command.js')).explainCommand() },
  serve: { load: async () => (await import('./serve-command.js')).serveCommand(), runOptions: true },
  claims: { load: async () => (await import('./claims-command.js')).claimsCommand(), runOptions: true },
  'judge-probe': { load: async () => (await import('./judge-probe-command.js')).judgeProbeCommand() },
};

/** Whether `command` or one of its subcommands takes `--plugin` (what `runOptions` marks). */
export const takesPlugins = (command: Command): boolean =>
  command.options.some((option) => option.long === '--plugin') || command.commands.some(takesPlugins);
