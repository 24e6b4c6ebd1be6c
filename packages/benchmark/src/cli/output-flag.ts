import { Option } from 'commander';
import { log } from './logger.js';

/**
 * `--out` is a folder in every command (`lme run`, `lme merge`, `lme ablate`); a command that
 * writes one file takes `-o, --output <file>`. `lme compare` and `lme report` took `--out <file>`
 * until 0.1: it still works for one release, with a warning.
 */
export function deprecatedOutOption(): Option {
  return new Option('--out <file>', 'deprecated: use --output').hideHelp();
}

/** The file a command writes: --output, else the deprecated --out (warned); both at once is refused. */
export function outputFile(flags: { output?: string; out?: string }, command: string): string | undefined {
  if (flags.out === undefined) return flags.output;
  if (flags.output !== undefined)
    throw new Error(`lme ${command}: give --output alone (--out is its deprecated name).`);
  log.warn(
    `lme ${command} --out <file> is deprecated and will be removed in the next release: use --output (-o); --out is a folder in every other command.`,
  );
  return flags.out;
}
