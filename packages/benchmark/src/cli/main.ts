#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { BENCHMARKS } from '../benchmarks/benchmark-registry.js';
import { collectSecrets, redactProcessOutput } from '../config/secrets.js';
import { COMMAND_MODULES } from './command-modules.js';
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

const asked = process.argv[2];
// `--plugin <file>` of a command that takes run options: components from outside the tree join the
// registries before the run config and its flags are built from them (components/plugins/load-plugins.ts).
const pluginSpecifiers =
  asked !== undefined && COMMAND_MODULES[asked]?.runOptions ? pluginArguments(process.argv.slice(3)) : [];
if (pluginSpecifiers.length > 0) {
  try {
    const { loadPlugins } = await import('../components/plugins/load-plugins.js');
    await loadPlugins(pluginSpecifiers, (await import('./plugin-kinds.js')).PLUGIN_KINDS);
  } catch (error) {
    log.error((error as Error).message);
    process.exit(EXIT.error);
  }
}
// `lme --help`, no command or an unknown one loads them all (to list them, or say which was meant).
const loaded =
  asked !== undefined && Object.hasOwn(COMMAND_MODULES, asked) ? [asked] : Object.keys(COMMAND_MODULES);
try {
  for (const command of await Promise.all(loaded.map((name) => COMMAND_MODULES[name]!.load())))
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
