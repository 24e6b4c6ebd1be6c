#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { BENCHMARKS } from '../benchmarks/benchmark-registry.js';
import { collectSecrets, redactProcessOutput } from '../config/secrets.js';
import { EXIT } from './exit-codes.js';
import { exitOnBrokenPipe } from './exit-on-broken-pipe.js';
import { addLoggingOptions, createLogger, log, logLevelOf, setLogger } from './logger.js';
import { pluginArguments } from './plugin-arguments.js';
import { warnIfStaleBuild } from './stale-build-warning.js';

/** Exit codes: see exit-codes.ts (0 ok, 1 error, 2 failed questions, 3 gate failed, 130 interrupted). */
export { EXIT };

/** The version of @lme/benchmark (`lme --version`); the same path from src/ and dist/. */
function packageVersion(): string {
  const path = new URL('../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
}

// Before anything can print: every key of the environment is redacted from all output.
collectSecrets(process.env);
redactProcessOutput();
// `lme … | head`: a closed stdout or stderr ends the command quietly, not with an EPIPE trace.
exitOnBrokenPipe();

await warnIfStaleBuild();

const program = new Command('lme')
  .description(
    `Benchmark long-term conversational memory systems on ${Object.keys(BENCHMARKS).length} benchmarks (benchmarks/<name>/)`,
  )
  .version(packageVersion(), '-V, --version', 'print the version of lme')
  .showHelpAfterError('(run with --help for usage)')
  .addHelpText(
    'after',
    '\nStart here:\n' +
      '  lme run --dataset sample --preset bm25     22 committed questions, no download, a few seconds\n' +
      '  lme presets                                what each preset runs, its figure on S\n' +
      '  lme datasets list                          which datasets are downloaded and verified\n' +
      '  lme run --help                             the run flags, the most used first\n' +
      '\nEvery command takes -q (errors only), -v (debug) and --help; see docs/cli.md.',
  )
  .exitOverride();

/**
 * Each command's module, loaded when it is asked for: `lme runs` or `lme gate` in CI need not load
 * the pipeline, the providers and the models. `lme --help`, no command or an unknown one loads all
 * (to list them, or say which was meant).
 */
const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  run: async () => (await import('./run-command.js')).runCommand(),
  datasets: async () => (await import('./datasets-command.js')).datasetsCommand(),
  presets: async () => (await import('./presets-command.js')).presetsCommand(),
  providers: async () => (await import('./providers-command.js')).providersCommand(),
  models: async () => (await import('./models-command.js')).modelsCommand(),
  ablate: async () => (await import('./ablate-command.js')).ablateCommand(),
  versus: async () => (await import('./versus-command.js')).versusCommand(),
  cache: async () => (await import('./cache-command.js')).cacheCommand(),
  qdrant: async () => (await import('./qdrant-command.js')).qdrantCommand(),
  bridges: async () => (await import('./bridges-command.js')).bridgesCommand(),
  compare: async () => (await import('./compare-command.js')).compareCommand(),
  gate: async () => (await import('./gate-command.js')).gateCommand(),
  merge: async () => (await import('./merge-command.js')).mergeCommand(),
  report: async () => (await import('./report-command.js')).reportCommand(),
  runs: async () => (await import('./runs-command.js')).runsCommand(),
  explain: async () => (await import('./explain-command.js')).explainCommand(),
  serve: async () => (await import('./serve-command.js')).serveCommand(),
  claims: async () => (await import('./claims-command.js')).claimsCommand(),
  'judge-probe': async () => (await import('./judge-probe-command.js')).judgeProbeCommand(),
};
const asked = process.argv[2];
// `--plugin <file>` of a command that takes run options: components from outside the tree join the
// registries before the run config and its flags are built from them (components/plugins/load-plugins.ts).
const RUN_OPTION_COMMANDS = ['run', 'ablate', 'versus', 'serve', 'claims', 'judge-probe', 'providers'];
const pluginSpecifiers =
  asked !== undefined && RUN_OPTION_COMMANDS.includes(asked) ? pluginArguments(process.argv.slice(3)) : [];
if (pluginSpecifiers.length > 0) {
  try {
    const { loadPlugins } = await import('../components/plugins/load-plugins.js');
    const plugins = await loadPlugins(pluginSpecifiers);
    // Their memory systems join --provider's registry once their retrievers and stages are in.
    if (plugins.some((plugin) => plugin.memories.length > 0))
      (await import('../providers/plugin-memories.js')).registerPluginMemories(plugins);
  } catch (error) {
    log.error((error as Error).message);
    process.exit(EXIT.error);
  }
}
const loaded = asked !== undefined && Object.hasOwn(COMMANDS, asked) ? [asked] : Object.keys(COMMANDS);
try {
  for (const command of await Promise.all(loaded.map((name) => COMMANDS[name]!())))
    program.addCommand(command);
} catch (error) {
  // A plugin's component the run config refuses (an option that is lme's): one sentence.
  log.error((error as Error).message);
  process.exit(EXIT.error);
}

// `lme --help` lists the commands by what they are for.
const COMMAND_GROUPS: Readonly<Record<string, readonly string[]>> = {
  'Run a benchmark:': ['run', 'ablate', 'versus', 'merge', 'serve', 'judge-probe'],
  'Data, presets and models:': ['datasets', 'presets', 'providers', 'models', 'cache', 'qdrant', 'bridges'],
  'Read results:': ['runs', 'compare', 'gate', 'report', 'explain', 'claims'],
};
for (const [heading, names] of Object.entries(COMMAND_GROUPS))
  for (const name of names) program.commands.find((command) => command.name() === name)?.helpGroup(heading);

// --quiet, -v/--verbose and --log-level on every command; the command's own flags set the level.
for (const command of program.commands) addLoggingOptions(command);
program.hook('preAction', (_program, action) => {
  setLogger(createLogger({ level: logLevelOf(action.opts()) }));
});

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? EXIT.ok : EXIT.error;
  } else {
    log.error((error as Error).message);
    process.exitCode = EXIT.error;
  }
}
