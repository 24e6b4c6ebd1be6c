import { type Command, InvalidArgumentError, Option } from 'commander';
import type { z } from 'zod';
import type { Benchmark } from '../benchmarks/benchmark.js';
import { resolveDatasetPath } from '../benchmarks/dataset-path.js';
import { closeNames } from '../config/close-names.js';
import { ineffectiveKeyWarnings } from '../config/ineffective-keys.js';
import { type OptionField, unwrapOption } from '../config/option-text.js';
import { listPresets, loadPreset } from '../config/presets.js';
import { type RunConfigInput, runConfigSchema } from '../config/run-config.js';
import {
  attributeName,
  configFromEnvironment,
  RUN_OPTION_GROUPS,
  RUN_OPTIONS,
  type RunOptionDeclaration,
  runOptionOf,
} from '../config/run-options.js';
import { datasetSourceOf, parseRunSections, type RunSections } from '../config/run-sections.js';
import { PRESET_CONTEXT_BUDGET } from '../config/sections/stages-section.js';
import { parseProviderOptions, providerNamed } from '../providers/provider-registry.js';
import { benchmarkLayer, benchmarkOfDataset } from '../run/benchmark-defaults.js';
import { keyValueFlag, listFlag, namedWeightsFlag, schemaNumberFlag, weightsFlag } from './parse-flag.js';

/**
 * Commander options built from the run option declarations (config/run-options.ts) and the run
 * config schema: choices, number bounds and the "default: …" of the help all come from the
 * schema, so the CLI and a preset are held to the same limits and the help never drifts.
 */

/** The schema of one config key, without its `.default()` / `.optional()` wrappers, and its default. */
export function fieldOf(key: string): OptionField {
  const schema = (runConfigSchema.shape as unknown as Record<string, z.ZodType>)[key];
  if (!schema) throw new Error(`run option ${key} is not a run config key.`);
  return unwrapOption({ schema });
}

function formatDefault(value: unknown): string {
  return Array.isArray(value) ? value.join(',') : String(value);
}

/**
 * The help of one declaration: its text, then env and default in parentheses. `field`: the
 * option's own schema, for one that is not a run config key (a `--provider-option`).
 */
export function helpOf(option: RunOptionDeclaration, field: OptionField = fieldOf(option.key)): string {
  const { schema, defaultValue } = field;
  const notes: string[] = [];
  if (option.env) notes.push(`env ${option.env}`);
  const isBoolean = schema.def.type === 'boolean';
  if (option.defaultHelp !== undefined) notes.push(`default: ${option.defaultHelp}`);
  else if (isBoolean && defaultValue === true && !option.flags.startsWith('--no-')) notes.push('the default');
  else if (!isBoolean && defaultValue !== undefined) notes.push(`default: ${formatDefault(defaultValue)}`);
  let help = option.help;
  if (option.key === 'preset') help = `${help} (${listPresets().join(', ')})`;
  return notes.length > 0 ? `${help} (${notes.join('; ')})` : help;
}

/** The commander options of one declaration (two for a boolean that also takes `--no-`). */
export function optionsOf(option: RunOptionDeclaration): Option[] {
  const { schema } = fieldOf(option.key);
  const created = new Option(option.flags, helpOf(option)).helpGroup(RUN_OPTION_GROUPS[option.group]);
  switch (schema.def.type) {
    case 'enum': {
      const choices = (schema as unknown as z.ZodEnum).options.map(String);
      // The choices show in --help; a value close to one is answered with it.
      created.choices(choices).argParser((value: string) => {
        if (choices.includes(value)) return value;
        const close = closeNames(value, choices, 1);
        throw new InvalidArgumentError(
          `Allowed choices are ${choices.join(', ')}.${close.length > 0 ? ` Did you mean "${close[0]}"?` : ''}`,
        );
      });
      break;
    }
    case 'number':
      created.argParser(schemaNumberFlag(schema as unknown as z.ZodNumber));
      break;
    case 'array':
      created.argParser(
        option.repeatable
          ? (value: string, previous: string[] | undefined) => [...(previous ?? []), ...listFlag(value)]
          : listFlag,
      );
      break;
    case 'tuple':
      created.argParser(weightsFlag);
      break;
    case 'object':
      created.argParser(namedWeightsFlag);
      break;
    case 'record':
      created.argParser(keyValueFlag);
      break;
  }
  if (!option.negatedHelp) return [created];
  return [
    created,
    new Option(option.flags.replace(/--/, '--no-'), option.negatedHelp).helpGroup(
      RUN_OPTION_GROUPS[option.group],
    ),
  ];
}

/**
 * Adds the run options (all of them, or the named config keys) to a command. `overrides` changes
 * a declaration for this command only (e.g. `lme serve` indexes all roles by default).
 */
export function addRunOptions(
  command: Command,
  keys?: readonly string[],
  overrides: Readonly<Record<string, Partial<RunOptionDeclaration>>> = {},
): Command {
  const selected = keys
    ? keys.map((key) => {
        const option = runOptionOf(key);
        if (!option) throw new Error(`no run option declares the config key ${key}.`);
        return option;
      })
    : inHelpOrder(RUN_OPTIONS as readonly RunOptionDeclaration[]);
  for (const option of selected)
    for (const created of optionsOf({ ...option, ...overrides[option.key] })) command.addOption(created);
  return command;
}

const GROUP_ORDER = Object.keys(RUN_OPTION_GROUPS);

/**
 * Declarations sorted by help section (RUN_OPTION_GROUPS order), declaration order within one;
 * `start` lists --dataset, --preset, --limit in that order.
 */
export function inHelpOrder(options: readonly RunOptionDeclaration[]): RunOptionDeclaration[] {
  const first = ['dataset', 'preset', 'limit'];
  const rank = (option: RunOptionDeclaration) =>
    GROUP_ORDER.indexOf(option.group) * 1000 + (first.includes(option.key) ? first.indexOf(option.key) : 999);
  return options
    .map((option, index) => ({ option, index }))
    .sort((left, right) => rank(left.option) - rank(right.option) || left.index - right.index)
    .map(({ option }) => option);
}

/** Flag attribute name (commander's) → config key, for every run option. */
export const FLAG_KEYS: Readonly<Record<string, string>> = Object.fromEntries(
  (RUN_OPTIONS as readonly RunOptionDeclaration[]).map((option) => [attributeName(option.flags), option.key]),
);

/** `--data-dir` as declared for runs, for commands that only need the data folder. */
export function dataDirOption(): Option {
  return optionsOf(runOptionOf('dataDir')!)[0]!;
}

/** `--cache-dir` as declared for runs, for commands that only need the cache folder. */
export function cacheDirOption(): Option {
  return optionsOf(runOptionOf('cacheDir')!)[0]!;
}

/** A folder setting outside a run (`lme cache`, `lme datasets`): the flag, else the environment, else the default. */
export function folderSetting(
  key: 'dataDir' | 'cacheDir',
  flagValue: string | undefined,
  environment: NodeJS.ProcessEnv = process.env,
): string {
  return flagValue ?? configFromEnvironment(environment)[key] ?? String(fieldOf(key).defaultValue);
}

/**
 * What a command line asks for: the merged config input (what `runBenchmark` takes), the same
 * resolved and grouped by owner (what the CLI prints and plans from), one warning per flag that has
 * no effect in it, and the keys each layer set (for `--verbose`).
 */
export type ResolvedRunInput = {
  input: RunConfigInput;
  sections: RunSections;
  warnings: string[];
  layers: Record<string, string[]>;
  /** The dataset's benchmark, found once here (`resolveRunInputForDataset`) and handed to the run. */
  benchmark?: Benchmark;
};

/** The layers a command line stacks above the benchmark's and the provider's; `higher` merges them. */
function requestedLayers(command: Command, stored: RunConfigInput, fromFile: RunConfigInput) {
  const flags = configFromFlags(command);
  const environment = configFromEnvironment(process.env);
  const presetName = flags.preset ?? fromFile.preset ?? stored.preset;
  const preset = presetName ? loadPreset(presetName).config : {};
  return {
    flags,
    environment,
    presetName,
    preset,
    higher: { ...stored, ...fromFile, ...preset, ...environment, ...flags } as RunConfigInput,
  };
}

/**
 * The config a command line asks for: defaults < the dataset's benchmark (`benchmark`, its
 * published convention, judge and reader prompt) < stored config (resume) < config file (--config)
 * < preset < environment < flags. A preset named by flag replaces the one of the file, and either
 * replaces the stored one. Flags that change nothing in the resolved config (`--top-sessions`
 * without `--retriever session-aware`) come back as warnings.
 */
export function resolveRunInput(
  command: Command,
  stored: RunConfigInput = {},
  fromFile: RunConfigInput = {},
  benchmark?: Benchmark,
): ResolvedRunInput {
  return resolveLayers(requestedLayers(command, stored, fromFile), stored, fromFile, benchmark);
}

function resolveLayers(
  requested: ReturnType<typeof requestedLayers>,
  stored: RunConfigInput,
  fromFile: RunConfigInput,
  benchmark: Benchmark | undefined,
): ResolvedRunInput {
  const { flags, environment, presetName, preset, higher } = requested;
  const fromBenchmark = benchmark ? benchmarkLayer(benchmark, higher) : {};
  const descriptor = providerNamed(higher.provider ?? String(fieldOf('provider').defaultValue));
  const unset = (key: keyof RunConfigInput) => !(key in higher) && !(key in fromBenchmark);
  // An external system gets the whole conversation unless a layer asks for user turns only, and a
  // new run measures its context (context.evidence_recall) at the presets' budget, as lme's own.
  const fromProvider: RunConfigInput = descriptor.capabilities.external
    ? {
        ...(unset('indexRoles') ? { indexRoles: 'all' } : {}),
        ...(unset('contextBudget') && Object.keys(stored).length === 0
          ? { contextBudget: PRESET_CONTEXT_BUDGET }
          : {}),
      }
    : {};
  const input = { ...fromBenchmark, ...fromProvider, ...higher };
  const sections = parseRunSections(input);
  const layers = {
    ...(benchmark ? { [`benchmark ${benchmark.name}`]: fromBenchmark.benchmarkDefaults?.keys ?? [] } : {}),
    [`provider ${descriptor.name}`]: Object.keys(fromProvider),
    'the resumed run': Object.keys(stored),
    '--config': Object.keys(fromFile),
    [`preset ${presetName}`]: Object.keys(preset),
    environment: Object.keys(environment),
    flags: Object.keys(flags),
  };
  const warnings = ineffectiveKeyWarnings(sections, Object.keys(flags), descriptor.capabilities);
  const { providerOptions } = sections.provider;
  if (providerOptions !== undefined && Object.keys(descriptor.options).length === 0) {
    warnings.push(
      `--provider-option has no effect with --provider ${descriptor.name}, which takes no options.`,
    );
  } else {
    parseProviderOptions(descriptor, providerOptions);
  }
  return { input, sections, warnings, layers, ...(benchmark ? { benchmark } : {}) };
}

/**
 * `resolveRunInput` with the layer of the dataset's benchmark: the dataset the merged layers name
 * is found first (without resolving them), and the config resolved once with that benchmark's
 * published setting below everything else. A dataset that does not read resolves without it (the
 * run then says what is wrong with it).
 */
export async function resolveRunInputForDataset(
  command: Command,
  stored: RunConfigInput = {},
  fromFile: RunConfigInput = {},
): Promise<ResolvedRunInput> {
  const requested = requestedLayers(command, stored, fromFile);
  let benchmark: Benchmark | undefined;
  try {
    const { dataset, dataDir } = datasetSourceOf(requested.higher);
    benchmark = await benchmarkOfDataset(resolveDatasetPath(dataset, dataDir));
  } catch {
    benchmark = undefined;
  }
  return resolveLayers(requested, stored, fromFile, benchmark);
}

/** Keeps only the options the user actually gave, mapped to config keys. */
export function configFromFlags(command: Command): RunConfigInput {
  const options = command.opts() as Record<string, unknown>;
  const fromFlags: Record<string, unknown> = {};
  for (const [flag, key] of Object.entries(FLAG_KEYS)) {
    const source = command.getOptionValueSource(flag);
    if (source !== undefined && source !== 'default') fromFlags[key] = options[flag];
  }
  return fromFlags as RunConfigInput;
}
