import { resolve } from 'node:path';
import { Command } from 'commander';
import type { Benchmark } from '../benchmarks/benchmark.js';
import { BENCHMARKS, benchmarkNamed, publishedDatasetFiles } from '../benchmarks/benchmark-registry.js';
import { resolveDatasetPath } from '../benchmarks/dataset-path.js';
import { datasetStatistics } from '../benchmarks/dataset-statistics.js';
import { loadAnyDataset } from '../benchmarks/load-dataset.js';
import { runOptionOf } from '../config/run-options.js';
import {
  DATASET_SOURCES_PATH,
  type DatasetSources,
  datasetSource,
  datasetUrl,
  identifyDigest,
  loadDatasetSources,
} from '../dataset/dataset-sources.js';
import { downloadDatasetFile } from '../dataset/download-dataset-file.js';
import { GITHUB_RAW_URL } from '../dataset/download-pinned-files.js';
import { renderMarkdownTable } from '../results/markdown-table.js';
import { listDatasets, renderDatasetList } from './datasets-list.js';
import { log } from './logger.js';
import { createProgress } from './progress.js';
import { folderSetting, helpOf } from './run-option-flags.js';

const SAMPLE_ORIGIN =
  'the committed sample: 22 questions cut from the cleaned S file by scripts/make-sample.ts';

type DataDirOptions = { dataDir?: string; sources?: string };

const DATA_DIR_HELP = helpOf(runOptionOf('dataDir')!);
const SOURCES_HELP = `the list of official files, revision and checksums (default: configs/datasets.json)`;

/** `--data-dir`, else LME_DATA_DIR, else `datasets`, as `lme run` reads it. */
function dataDirOf(options: DataDirOptions): string {
  return folderSetting('dataDir', options.dataDir);
}

function sourcesOf(options: DataDirOptions): DatasetSources {
  return loadDatasetSources(options.sources ?? DATASET_SOURCES_PATH);
}

export function datasetsCommand(): Command {
  const datasets = new Command('datasets').description('get, verify and inspect the benchmark files');
  datasets
    .command('info')
    .argument('<name|path>', 'oracle, s, m, sample, or a path')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .option('--sources <file>', SOURCES_HELP)
    .description('questions per type, abstention, sessions, turns and evidence sessions')
    .action(async (name: string, options: DataDirOptions) => {
      const path = resolveDatasetPath(name, dataDirOf(options));
      const { records, sha256, format, warnings } = await loadAnyDataset(path);
      const statistics = datasetStatistics(records);
      const header = [
        'question_type',
        'questions',
        'abstention',
        'sessions',
        'turns',
        'user turns',
        'evidence sessions',
      ];
      const body = statistics.rows.map((row) => [
        row.label,
        String(row.questions),
        String(row.abstention),
        String(row.sessions),
        String(row.turns),
        String(row.userTurns),
        String(row.evidenceSessions),
      ]);
      const origin =
        path === publishedDatasetFiles().committedSample
          ? SAMPLE_ORIGIN
          : provenance(sourcesOf(options), sha256, name);
      process.stdout.write(`${path}\nsha256 ${sha256}\n${origin}\n\n`);
      process.stdout.write(`${renderMarkdownTable(header, body)}\n`);
      process.stdout.write(
        `\n${statistics.repeatedSessionHaystacks} haystacks repeat a session id; ${statistics.distinctUserTurns} distinct user turns.\n`,
      );
      process.stdout.write(benchmarkNamed(format).statisticsNote?.(statistics.rows) ?? '');
      for (const warning of warnings) log.warn(warning);
    });

  datasets
    .command('list')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .option('--sources <file>', SOURCES_HELP)
    .option('--no-verify', 'only say whether each file is there (no SHA-256: M takes a while to hash)')
    .description('the datasets lme knows: what each is, whether it is downloaded, where, and verified or not')
    .action(async (options: DataDirOptions & { verify: boolean }) => {
      const dataDir = dataDirOf(options);
      process.stdout.write(
        renderDatasetList(await listDatasets(sourcesOf(options), dataDir, options.verify)),
      );
      process.stdout.write(
        `\ndata dir: ${dataDir} (--data-dir or LME_DATA_DIR); \`lme datasets download s\` fetches S, \`lme datasets info <name>\` describes one.\n`,
      );
    });

  datasets
    .command('download')
    .argument(
      '<names...>',
      'oracle, s and/or m, or a name another benchmark downloads itself (`lme datasets list`)',
    )
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .option('--hub-url <url>', 'Hugging Face hub address (env LME_HUB_URL; default: https://huggingface.co)')
    .option(
      '--github-raw-url <url>',
      `raw GitHub address for files a benchmark fetches from GitHub (env LME_GITHUB_RAW_URL; default: ${GITHUB_RAW_URL})`,
    )
    .option('--sources <file>', SOURCES_HELP)
    .description('download official dataset files at their pinned revision, resumably, checking SHA-256')
    .action(async (names: string[], options: DataDirOptions & { hubUrl?: string; githubRawUrl?: string }) => {
      // Names a benchmark downloads itself (its `downloads`); the rest are configs/datasets.json's.
      const ownDownload = (name: string) =>
        Object.values(BENCHMARKS as Record<string, Benchmark>).find((benchmark) =>
          benchmark.downloads?.names.includes(name),
        );
      const sources = sourcesOf(options);
      for (const name of names) if (!ownDownload(name)) datasetSource(sources, name); // unknown names fail before any download
      const dataDir = dataDirOf(options);
      for (const name of names) {
        const benchmark = ownDownload(name);
        if (!benchmark) continue;
        const baseUrl = options.githubRawUrl ?? process.env.LME_GITHUB_RAW_URL;
        const line = await benchmark.downloads!.download(name, { dataDir, ...(baseUrl ? { baseUrl } : {}) });
        process.stdout.write(`${line}\n`);
      }
      names = names.filter((name) => !ownDownload(name));
      const hubUrl = options.hubUrl ?? process.env.LME_HUB_URL ?? sources.hubUrl;
      const checksumSource = options.sources ?? 'configs/datasets.json';
      for (const name of names) {
        const source = datasetSource(sources, name);
        const url = datasetUrl(sources, name, hubUrl);
        const target = resolve(dataDir, source.file);
        log.info(`lme: ${name}: ${url}`);
        const progress = createProgress(`downloading ${source.file}`, { unit: 'bytes' });
        progress.start();
        const result = await downloadDatasetFile({
          url,
          target,
          bytes: source.bytes,
          sha256: source.sha256,
          checksumSource,
          onProgress: (received, total) => progress.update(received, total || undefined),
        }).finally(() => progress.stop());
        if (result.resumedFrom > 0) log.info(`lme: ${name}: resumed after ${result.resumedFrom} bytes`);
        const state = result.alreadyPresent ? 'already present' : 'downloaded';
        if (result.verified) {
          process.stdout.write(`${name}: ${state}, SHA-256 verified: ${result.path}\n`);
        } else {
          process.stdout.write(`${name}: ${state}, UNVERIFIED: ${result.path}\n`);
          log.warn(
            `${name}: ${checksumSource} holds no SHA-256 for ${source.file}, so the file could not be verified (its SHA-256 is ${result.sha256}).`,
          );
        }
      }
    });

  datasets
    .command('verify')
    .argument('[names...]', 'oracle, s and/or m (default: all three)')
    .option('--data-dir <dir>', DATA_DIR_HELP)
    .option('--sources <file>', SOURCES_HELP)
    .description('check the files in the data directory against the published SHA-256 checksums')
    .action(async (names: string[], options: DataDirOptions) => {
      const sources = sourcesOf(options);
      const named = names.length > 0;
      const dataDir = dataDirOf(options);
      const results = await publishedDatasetFiles().verify(
        sources,
        named ? names : Object.keys(sources.files),
        dataDir,
      );
      for (const result of results) {
        const where = result.path ? ` ${result.path}` : '';
        process.stdout.write(`${result.dataset}: ${result.status.toUpperCase()}${where}: ${result.detail}\n`);
      }
      const failed = results.filter(
        (result) => result.status === 'mismatch' || (named && result.status === 'missing'),
      );
      if (failed.length > 0) {
        throw new Error(
          `${failed.map((result) => result.dataset).join(', ')} did not verify (see above); \`lme datasets download <name>\` fetches the published file.`,
        );
      }
      // Nothing to verify is not a success: a CI step that checks the data must fail without it.
      if (results.every((result) => result.status === 'missing')) {
        throw new Error(`no dataset file in ${dataDir} to verify; \`lme datasets download s\` fetches one.`);
      }
    });
  return datasets;
}

/** What a file's checksum says about where it comes from, one line for `datasets info`. */
function provenance(sources: DatasetSources, sha256: string, name: string): string {
  const match = identifyDigest(sources, sha256);
  if (match?.kind === 'published') {
    const questions = match.source.questions ? ` (${match.source.questions} questions)` : '';
    return `the published ${match.source.file} at revision ${sources.revision}${questions}`;
  }
  if (match?.kind === 'copy') return `not the published bytes: ${match.note}`;
  const published = sources.files[name];
  if (published) {
    return `matches no checksum in configs/datasets.json (the published ${published.file} has ${published.questions ?? 'an unknown number of'} questions); \`lme datasets verify ${name}\` says more`;
  }
  return 'not a published file listed in configs/datasets.json';
}
