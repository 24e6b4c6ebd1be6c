import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { REPO_ROOT } from '../testing/run-cli.js';
import { mergeCommand } from './merge-command.js';
import { runCommand } from './run-command.js';
import { shardFromEnvironment } from './shard-from-env.js';

/*
 * The manifests docs/scale-out.md shows, parsed as Kubernetes and GitHub Actions would read them
 * (YAML), their lme command lines parsed as lme parses them: a manifest that would run the wrong
 * shards, lose the cache or merge the wrong folders fails here.
 */

const DOC = join(REPO_ROOT, 'docs/scale-out.md');

// biome-ignore lint/suspicious/noExplicitAny: parsed YAML, walked by path; the assertions check its shape.
type Manifest = Record<string, any>;

/** The YAML documents of the fenced block after `<!-- scale-out: name -->`. */
function manifest(name: string): Manifest[] {
  const lines = readFileSync(DOC, 'utf8').split('\n');
  const marker = lines.indexOf(`<!-- scale-out: ${name} -->`);
  expect(marker, `docs/scale-out.md has no "${name}" block`).toBeGreaterThanOrEqual(0);
  expect(lines[marker + 1]).toBe('```yaml');
  const end = lines.indexOf('```', marker + 2);
  const documents = parseAllDocuments(lines.slice(marker + 2, end).join('\n'));
  for (const document of documents) expect(document.errors).toEqual([]);
  return documents.map((document) => document.toJS() as Manifest);
}

/** Parses `lme <command> ...` with lme's own command definitions, running nothing. */
function parseLme(words: readonly string[]): { name: string; command: Command } {
  const at = words.indexOf('lme');
  expect(at, `no lme in ${words.join(' ')}`).toBeGreaterThanOrEqual(0);
  const [name, ...args] = words.slice(at + 1);
  const command = (name === 'run' ? runCommand() : mergeCommand()).exitOverride().action(() => {});
  command.configureOutput({ writeErr: () => {}, writeOut: () => {} });
  command.parse(args, { from: 'user' });
  return { name: name!, command };
}

const words = (line: string) => line.trim().split(/\s+/);
/** GitHub Actions expressions as the workflow writes them. */
const JOB_INDEX = `\${{ strategy.job-index }}`;
const JOB_TOTAL = `\${{ strategy.job-total }}`;

describe('docs/scale-out.md: Kubernetes', () => {
  const [claim] = manifest('kubernetes-seed');
  const [job] = manifest('kubernetes-shards');
  const [merge] = manifest('kubernetes-merge');
  const shards = job!.spec.completions as number;
  const container = job!.spec.template.spec.containers[0];
  const script = (container.args[0] as string).split('\n');
  const runLine = (index: number) =>
    words(
      script
        .find((line) => / lme run --dataset/.test(line))!
        .replaceAll('$JOB_COMPLETION_INDEX', String(index)),
    );

  it('runs every shard once, each from its completion index', () => {
    expect(job!.kind).toBe('Job');
    expect(job!.spec.completionMode).toBe('Indexed');
    expect(shards).toBe(4);
    expect(job!.spec.parallelism).toBe(shards);
    const runs = Array.from({ length: shards }, (_, index) => parseLme(runLine(index)).command.opts());
    for (const options of runs) expect(options.shardFromEnv).toBe(`JOB_COMPLETION_INDEX/${shards}`);
    expect(
      Array.from({ length: shards }, (_, index) =>
        shardFromEnvironment(runs[index]!.shardFromEnv, { JOB_COMPLETION_INDEX: String(index) }),
      ),
    ).toEqual(['1/4', '2/4', '3/4', '4/4']);
    expect(new Set(runs.map((options) => options.runId)).size).toBe(shards);
  });

  it('resumes a retried shard in its own folder', () => {
    const resume = script.find((line) => /--resume/.test(line))!;
    const { command } = parseLme(words(resume.replace(/^.*then /, '').replace(/; fi$/, '')));
    const folder = script.find((line) => line.startsWith('dir='))!.slice('dir='.length);
    expect(command.opts().resume).toBe('"$dir"');
    const options = parseLme(runLine(2)).command.opts();
    expect(join(options.out, options.runId)).toBe(folder.replace('$JOB_COMPLETION_INDEX', '2'));
  });

  it('keeps the cache, data and results on one ReadWriteMany volume', () => {
    expect(claim!.kind).toBe('PersistentVolumeClaim');
    expect(claim!.spec.accessModes).toContain('ReadWriteMany');
    const volumes = job!.spec.template.spec.volumes as {
      name: string;
      persistentVolumeClaim: { claimName: string };
    }[];
    const mount = container.volumeMounts[0] as { name: string; mountPath: string };
    expect(volumes.find((volume) => volume.name === mount.name)?.persistentVolumeClaim.claimName).toBe(
      claim!.metadata.name,
    );
    const options = parseLme(runLine(0)).command.opts();
    for (const path of [options.cacheDir, options.out])
      expect(path.startsWith(`${mount.mountPath}/`)).toBe(true);
    const environment = Object.fromEntries(
      (container.env as { name: string; value: string }[]).map(({ name, value }) => [name, value]),
    );
    expect(environment.LME_CACHE_DIR).toBe(options.cacheDir);
    expect(String(environment.LME_DATA_DIR).startsWith(`${mount.mountPath}/`)).toBe(true);
  });

  it('merges exactly the folders the shards write, from the same volume', () => {
    const mergeSpec = merge!.spec.template.spec;
    const { command } = parseLme(mergeSpec.containers[0].command);
    const folders = Array.from({ length: shards }, (_, index) => {
      const options = parseLme(runLine(index)).command.opts();
      return join(options.out, options.runId);
    });
    expect(command.args).toEqual(folders);
    expect(mergeSpec.volumes[0].persistentVolumeClaim.claimName).toBe(claim!.metadata.name);
    expect(mergeSpec.containers[0].volumeMounts[0].mountPath).toBe(container.volumeMounts[0].mountPath);
  });
});

// Issue 60, item 10: no image, no step putting data and model files on the volume once.
describe('docs/scale-out.md: the image and the seed', () => {
  const [job] = manifest('kubernetes-shards');
  const [claim, seed] = manifest('kubernetes-seed');
  const shard = job!.spec.template.spec.containers[0];
  const shardLine = words(
    (shard.args[0] as string).split('\n').find((line: string) => / lme run --dataset/.test(line))!,
  );
  const shardOptions = parseLme(shardLine).command.opts();
  const seedContainer = seed!.spec.template.spec.containers[0];
  const seedScript = (seedContainer.args[0] as string).trim().split('\n');
  const environment = (container: Manifest) =>
    Object.fromEntries(
      (container.env as { name: string; value: string }[]).map(({ name, value }) => [name, value]),
    );

  it("builds the image the Jobs run from the checkout's Dockerfile: pinned pnpm, frozen install, /lme, the volume's folders", () => {
    const dockerfile = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8');
    const instructions = dockerfile.split('\n').filter((line) => /^[A-Z]+ /.test(line));
    const packageManager = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).packageManager;
    // Node 20 by default; scripts/build-image.sh passes a base of its own as BASE.
    expect(instructions.slice(0, 2)).toEqual(['ARG BASE=node:20-bookworm-slim', `FROM \${BASE}`]);
    expect(instructions).toContain(`RUN npm i -g ${packageManager}`);
    expect(instructions).toContain('RUN pnpm install --frozen-lockfile');
    expect(instructions).toContain(`WORKDIR ${shard.workingDir}`);
    const env = instructions
      .find((line) => line.startsWith('ENV LME_'))!
      .slice(4)
      .split(' ');
    expect(Object.fromEntries(env.map((pair) => pair.split('=')))).toEqual(environment(shard));
    // Its default command is a run lme parses: the committed sample, as a smoke test.
    const command = JSON.parse(instructions.find((line) => line.startsWith('CMD '))!.slice(4)) as string[];
    expect(parseLme(command).command.opts()).toMatchObject({ dataset: 'sample' });
    const ignored = readFileSync(join(REPO_ROOT, '.dockerignore'), 'utf8').split('\n');
    for (const folder of ['node_modules', '**/node_modules', '**/dist', 'results', '.git'])
      expect(ignored).toContain(folder);
  });

  it('puts the dataset and the preset embedders model files on the shards volume once, where the shards read them', () => {
    expect(claim!.kind).toBe('PersistentVolumeClaim');
    expect(seed!.kind).toBe('Job');
    expect(seedContainer.image).toBe(shard.image);
    expect(environment(seedContainer)).toEqual(environment(shard));
    expect(seedScript[0]).toBe('set -e');
    expect(seedScript).toContain(`pnpm -s lme datasets download ${shardOptions.dataset}`);
    const preset = JSON.parse(
      readFileSync(join(REPO_ROOT, 'configs', 'presets', `${shardOptions.preset}.json`), 'utf8'),
    ) as { config: { embedder: string } };
    const models = preset.config.embedder.split('+').map((part) => part.replace(/^hf:/, ''));
    const fetch = words(seedScript.find((line) => line.includes('lme models fetch'))!);
    expect(fetch.slice(fetch.indexOf('fetch') + 1, fetch.indexOf('--cache-dir'))).toEqual(models);
    expect(fetch[fetch.indexOf('--cache-dir') + 1]).toBe(shardOptions.cacheDir);
    expect(seed!.spec.template.spec.volumes[0].persistentVolumeClaim.claimName).toBe(claim!.metadata.name);
    expect(seedContainer.volumeMounts[0].mountPath).toBe(shard.volumeMounts[0].mountPath);
  });
});

describe('docs/scale-out.md: GitHub Actions', () => {
  const [workflow] = manifest('github-actions');
  const shardJob = workflow!.jobs.shard;
  const shards = (shardJob.strategy.matrix.shard as number[]).length;
  const steps = shardJob.steps as { uses?: string; run?: string; with?: Manifest }[];
  /** The shard step's command line as job `index` of `shards` runs it. */
  const runOf = (index: number) =>
    parseLme(
      words(
        steps
          .find((step) => step.run?.includes('lme run'))!
          .run!.replaceAll(JOB_TOTAL, String(shards))
          .replaceAll(JOB_INDEX, String(index)),
      ),
    ).command.opts();

  it('runs one shard per matrix job, from strategy.job-index', () => {
    expect(shards).toBe(4);
    expect(shardJob.env.LME_SHARD_INDEX).toBe(JOB_INDEX);
    expect(shardJob.strategy['fail-fast']).toBe(false);
    const specs = Array.from({ length: shards }, (_, index) =>
      shardFromEnvironment(runOf(index).shardFromEnv, { LME_SHARD_INDEX: String(index) }),
    );
    expect(specs).toEqual(['1/4', '2/4', '3/4', '4/4']);
  });

  it('restores the embedding cache in every job and saves it under the job own key', () => {
    const cache = steps.find(
      (step) => step.uses?.startsWith('actions/cache@') && step.with?.path === '.lme-cache',
    );
    expect(cache).toBeDefined();
    expect(runOf(0).cacheDir).toBe(cache!.with!.path);
    expect(cache!.with!.key).toContain(JOB_INDEX);
    const prefix = cache!.with!['restore-keys']!.trim();
    expect(cache!.with!.key.startsWith(prefix)).toBe(true);
  });

  it('merges the four uploaded shard folders after every shard finished', () => {
    const upload = steps.find((step) => step.uses?.startsWith('actions/upload-artifact@'))!;
    const options = runOf(1);
    expect(upload.with!.path.replaceAll(JOB_INDEX, '1')).toBe(join(options.out, options.runId));
    const mergeJob = workflow!.jobs.merge;
    expect(mergeJob.needs).toBe('shard');
    const download = (mergeJob.steps as typeof steps).find((step) =>
      step.uses?.startsWith('actions/download-artifact@'),
    )!;
    const mergeStep = (mergeJob.steps as typeof steps).find((step) => step.run?.includes('lme merge'))!;
    const { command } = parseLme(words(mergeStep.run!));
    const names = Array.from({ length: shards }, (_, index) =>
      upload.with!.name.replaceAll(JOB_INDEX, String(index)),
    );
    expect(command.args).toEqual(names.map((name) => join(download.with!.path, name)));
    expect(
      names.every((name) => new RegExp(`^${download.with!.pattern.replace('*', '.*')}$`).test(name)),
    ).toBe(true);
  });
});
