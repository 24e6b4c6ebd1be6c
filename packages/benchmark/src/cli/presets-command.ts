import { Command } from 'commander';
import { listPresets, loadPreset, PRESETS_DIR, type Preset } from '../config/presets.js';

/** The first sentence of a description: up to the first full stop followed by a space. */
export function firstSentence(text: string): string {
  const end = text.search(/\.\s/);
  return end === -1 ? text : text.slice(0, end + 1);
}

/** `lme presets`: one block per preset (name, what it runs, its measured figure on S when known). */
export function renderPresetList(presets: readonly Preset[]): string {
  const width = Math.max(...presets.map((preset) => preset.name.length));
  const indent = ' '.repeat(width + 2);
  return presets
    .map((preset) => {
      const lines = [
        `${preset.name.padEnd(width)}  ${firstSentence(preset.description) || '(no description)'}`,
      ];
      lines.push(`${indent}on S: ${preset.figure ?? 'not measured'}`);
      return lines.join('\n');
    })
    .join('\n');
}

export function presetsCommand(): Command {
  return new Command('presets')
    .description(
      'list the presets (configs/presets): what each runs and its figure on S; with a name, its config',
    )
    .argument('[name]', 'show this preset whole: description, figure and config keys')
    .addHelpText(
      'after',
      '\nExamples:\n  lme presets\n  lme presets hybrid\n  lme run --dataset s --preset hybrid',
    )
    .action((name: string | undefined) => {
      if (name !== undefined) {
        const preset = loadPreset(name);
        process.stdout.write(
          `${preset.name}\n\n${preset.description}\n\non S: ${preset.figure ?? 'not measured'}\n\n${JSON.stringify(preset.config, null, 2)}\n`,
        );
        return;
      }
      const presets = listPresets().map((preset) => loadPreset(preset));
      process.stdout.write(
        `${renderPresetList(presets)}\n\n${presets.length} presets in ${PRESETS_DIR}; \`lme presets <name>\` shows one whole, \`lme run --preset <name>\` runs it.\n`,
      );
    });
}
