import { Command } from 'commander';
import { addRunOptions } from './run-option-flags.js';

/** Parses a run command line the way `lme run` does, without running anything (tests read the options it sets). */
export function parseRun(args: string[]): Command {
  const command = addRunOptions(new Command('run'))
    .exitOverride()
    .action(() => {});
  command.configureOutput({ writeErr: () => {}, writeOut: () => {} });
  command.parse(args, { from: 'user' });
  return command;
}
