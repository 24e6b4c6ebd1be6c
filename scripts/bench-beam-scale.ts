/**
 * Wall time and peak memory of lme on a BEAM tier (a folder of conversations: chats/100K, 500K, or
 * the 1M conversations present), one `lme run` per preset (default bm25 and hybrid), with the
 * tier's size (conversations, questions, messages) and overall session recall_any@10 /
 * recall_all@10, turn recall_any@10 when graded at turn level. Peak memory is the summed RSS of
 * the run's process tree, sampled from /proc every 50 ms (scripts/process-tree-rss.ts).
 *
 *   pnpm tsx scripts/bench-beam-scale.ts --tier <folder> [--label 500K] [--presets bm25,hybrid]
 *     [--model-dir <models folder>] [--cache-dir .lme-cache] [-- extra lme run flags]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { rssOfTree } from './process-tree-rss.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    tier: { type: 'string' },
    label: { type: 'string' },
    presets: { type: 'string', default: 'bm25,hybrid' },
    'model-dir': { type: 'string' },
    'cache-dir': { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
if (!values.tier)
  throw new Error('--tier <folder> is required: a BEAM tier folder such as datasets/beam/chats/100K.');
const tier = resolve(values.tier);
const label = values.label ?? basename(tier);
const root = resolve(import.meta.dirname, '..');

/** Conversations, questions and messages of the tier, counted from its files. */
function tierSize(): { conversations: number; questions: number; messages: number; bytes: number } {
  let conversations = 0;
  let questions = 0;
  let messages = 0;
  let bytes = 0;
  for (const entry of readdirSync(tier)) {
    let chatText: string;
    try {
      chatText = readFileSync(join(tier, entry, 'chat.json'), 'utf8');
    } catch {
      continue;
    }
    const probing = JSON.parse(
      readFileSync(join(tier, entry, 'probing_questions', 'probing_questions.json'), 'utf8'),
    );
    conversations++;
    bytes += Buffer.byteLength(chatText);
    const chat = JSON.parse(chatText) as { turns: unknown[][] }[];
    for (const batch of chat) for (const turn of batch.turns) messages += turn.length;
    for (const list of Object.values(probing as Record<string, unknown[]>)) questions += list.length;
  }
  return { conversations, questions, messages, bytes };
}

type Measured = {
  preset: string;
  wallS: number;
  peakMiB: number;
  figures: Record<string, number | undefined>;
};

async function measure(preset: string): Promise<Measured> {
  const out = mkdtempSync(join(tmpdir(), 'lme-beam-scale-'));
  const args = [
    join(root, 'packages/benchmark/bin/lme.js'),
    'run',
    ...['--dataset', tier, '--preset', preset, '--convention', 'evidence', '--out', out, '--run-id', preset],
    ...(values['model-dir'] ? ['--model-dir', values['model-dir']] : []),
    ...(values['cache-dir'] ? ['--cache-dir', values['cache-dir']] : []),
    ...positionals,
  ];
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4000);
  });
  let peak = 0;
  const timer = setInterval(() => {
    if (child.pid !== undefined) peak = Math.max(peak, rssOfTree(child.pid));
  }, 50);
  const status = await new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  clearInterval(timer);
  const wallS = (performance.now() - started) / 1000;
  if (status !== 0)
    throw new Error(`lme run --preset ${preset} on ${tier} failed (exit ${status}):\n${stderr}`);
  const summary = JSON.parse(readFileSync(join(out, preset, 'summary.json'), 'utf8')) as {
    metrics: { overall: { metrics: Record<string, number> } };
  };
  const overall = summary.metrics.overall.metrics;
  if (!values.keep) rmSync(out, { recursive: true, force: true });
  return {
    preset,
    wallS,
    peakMiB: peak / 2 ** 20,
    figures: {
      'session.recall_any@10': overall['session.recall_any@10'],
      'session.recall_all@10': overall['session.recall_all@10'],
      'turn.recall_any@10': overall['turn.recall_any@10'],
    },
  };
}

const size = tierSize();
process.stdout.write(
  `BEAM ${label}: ${size.conversations} conversations, ${size.questions} questions, ${size.messages} messages, ${(size.bytes / 2 ** 20).toFixed(1)} MiB of chat.json (${tier}); load average ${loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')}\n\n`,
);
process.stdout.write(
  '| tier | preset | wall s | peak RSS MiB | session.recall_any@10 | session.recall_all@10 |\n|---|---|--:|--:|--:|--:|\n',
);
for (const preset of values.presets.split(',')) {
  const result = await measure(preset);
  const figure = (name: string) =>
    result.figures[name] === undefined ? '-' : result.figures[name]!.toFixed(4);
  process.stdout.write(
    `| ${label} | ${preset} | ${result.wallS.toFixed(1)} | ${result.peakMiB.toFixed(0)} | ${figure('session.recall_any@10')} | ${figure('session.recall_all@10')} |\n`,
  );
}
process.stdout.write(
  `\nload average after: ${loadavg()
    .map((value) => value.toFixed(1))
    .join(' ')}\n`,
);
