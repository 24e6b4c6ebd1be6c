import { Command } from 'commander';
import { PROVIDERS, providerNamed } from '../providers/provider-registry.js';
import { providersHelp } from './provider-help.js';
import { addRunOptions } from './run-option-flags.js';

/**
 * `lme providers [name]`: the memory systems `--provider` can name (plugins' too, with `--plugin`),
 * each with its capabilities and `--provider-option`s, as `lme run --help` lists them.
 */
export function providersCommand(): Command {
  return addRunOptions(new Command('providers'), ['plugins'])
    .description(
      'list the memory systems --provider can name: what each is, its capabilities and its --provider-options',
    )
    .argument('[name]', 'show this provider only')
    .addHelpText(
      'after',
      '\nExamples:\n  lme providers\n  lme providers mem0\n  lme run -d sample --provider mem0 --provider-option threshold=0.2',
    )
    .action((name: string | undefined) => {
      const registry = name === undefined ? PROVIDERS : { [name]: providerNamed(name) };
      process.stdout.write(`${providersHelp(registry).trimStart()}\n`);
    });
}
