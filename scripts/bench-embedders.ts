/**
 * Embedding speed of lme's embedders on real LongMemEval S user turns (the first N distinct ones,
 * 3,000 by default), cold (no disk cache), each in a fresh process so peak RSS is its own:
 *
 *   - `lme`: the embedder as a run makes it (search-core's createEmbedder), texts given in calls of
 *     256 (about one question's user turns); for hf: models one text per model call, --threads
 *     calls at once in one-thread sessions (issue 35: a vector that depends on the text alone);
 *   - `ort`: for hf: models, onnxruntime-node driven directly (the same tokenizer and truncation),
 *     no pooling, on the length-sorted batches lme used before issue 35 (at most --batch-size texts
 *     and --batch-tokens padded tokens, one --threads-thread session): what batching would buy;
 *   - `transformers.js`: for hf: models, the `@huggingface/transformers` feature-extraction pipeline
 *     on the same sorted batches, with the model's pooling and normalisation.
 *
 *   pnpm tsx --conditions=source scripts/bench-embedders.ts [--texts 3000] [--repeats 2]
 *       [--embedders local:use-lite,hf:Xenova/all-MiniLM-L6-v2,hf:Xenova/bge-small-en-v1.5,hf:Xenova/e5-small-v2]
 *       [--paths lme,ort,transformers.js] [--threads N] [--batch-size 32] [--batch-tokens 512] [--cache-dir .lme-cache]
 *       [--documents turns|sessions]
 *
 * `--documents sessions` embeds distinct S session documents instead (a session's user turns joined
 * by "\n", MemPalace's raw mode): with `--embedders hf:Xenova/all-MiniLM-L6-v2@fp32 --paths lme,ort
 * --batch-tokens 8192` it prints lme's cold time over raw onnxruntime's (issue 57's 1.3x target).
 *
 * Runs alternate (every embedder and path once, then again), and the table shows the median texts/s
 * (and texts per CPU second, user + system time of every thread, which a busy machine disturbs less)
 * and the largest peak RSS. Models come from the store below --cache-dir (`lme models fetch`).
 * Data: LME_DATA_DIR (default ../shared/datasets/longmemeval). Prints figures only.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { chooseModel, loadModelCatalog } from '../packages/benchmark/src/models/model-catalog.js';
import { onnxModelResolver, openModelStore } from '../packages/benchmark/src/models/onnx-model-resolver.js';
import { createEmbedder } from '../packages/search-core/src/embedding/index.js';
import { createTokenEncoder } from '../packages/search-core/src/embedding/onnx/token-encoder.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    texts: { type: 'string', default: '3000' },
    repeats: { type: 'string', default: '2' },
    embedders: {
      type: 'string',
      default: 'local:use-lite,hf:Xenova/all-MiniLM-L6-v2,hf:Xenova/bge-small-en-v1.5,hf:Xenova/e5-small-v2',
    },
    paths: { type: 'string', default: 'lme,ort,transformers.js' },
    threads: { type: 'string', default: '2' },
    'batch-size': { type: 'string', default: '32' },
    'batch-tokens': { type: 'string', default: '512' },
    // `turns`: distinct user turns; `sessions`: distinct session documents (a session's user turns
    // joined by "\n", as MemPalace's raw mode and `--retriever session-document` index them).
    documents: { type: 'string', default: 'turns' },
    'cache-dir': { type: 'string', default: process.env.LME_CACHE_DIR ?? '.lme-cache' },
    // Internal: one measurement, in this process, on the texts of this JSON file.
    child: { type: 'string' },
    'texts-file': { type: 'string' },
  },
});

const CALL_SIZE = 256;
const threads = Number(values.threads);
// The ort and transformers.js paths' batching (lme's before issue 35); USE-lite keeps its own batches of 16.
const batchSize = Number(values['batch-size']);
const batchTokens = Number(values['batch-tokens']);
const cacheDir = resolve(values['cache-dir']);

function readTexts(limit: number): string[] {
  const dataDir = process.env['LME_DATA_DIR'] ?? resolve(root, '../shared/datasets/longmemeval');
  const plain = join(dataDir, 'longmemeval_s_cleaned.json');
  const file = existsSync(plain) ? plain : `${plain}.gz`;
  const raw = readFileSync(file);
  const questions = JSON.parse((file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8')) as Array<{
    haystack_sessions: Array<Array<{ role: string; content: string }>>;
  }>;
  const seen = new Set<string>();
  if (values.documents === 'sessions') {
    for (const question of questions)
      for (const session of question.haystack_sessions) {
        const text = sessionDocument(session);
        if (text === undefined || seen.has(text)) continue;
        seen.add(text);
        if (seen.size >= limit) return [...seen];
      }
    return [...seen];
  }
  for (const question of questions)
    for (const session of question.haystack_sessions)
      for (const turn of session) {
        if (turn.role !== 'user' || seen.has(turn.content)) continue;
        seen.add(turn.content);
        if (seen.size >= limit) return [...seen];
      }
  return [...seen];
}

/** MemPalace raw mode's document of a session: its user turns joined by "\n"; none without user turns. */
function sessionDocument(session: Array<{ role: string; content: string }>): string | undefined {
  const user = session.filter((turn) => turn.role === 'user');
  return user.length > 0 ? user.map((turn) => turn.content).join('\n') : undefined;
}

type Measurement = {
  embedder: string;
  path: string;
  texts: number;
  seconds: number;
  /** CPU time (user + system, every thread) of the timed part: texts per CPU second hold up on a busy machine. */
  cpuSeconds: number;
  peakRssMiB: number;
  truncated?: number;
};

/**
 * Length-sorted batches (longest first) of at most `maxTexts` texts and `maxTokens` padded tokens,
 * as lme's ONNX embedder made them before issue 35; a text longer than the budget runs alone.
 */
function planBatches(lengths: readonly number[], maxTexts: number, maxTokens: number): number[][] {
  const order = lengths.map((_, index) => index).sort((a, b) => lengths[b]! - lengths[a]!);
  const batches: number[][] = [];
  let current: number[] = [];
  for (const index of order) {
    const width = current.length > 0 ? lengths[current[0]!]! : lengths[index]!;
    if (current.length > 0 && (current.length >= maxTexts || (current.length + 1) * width > maxTokens)) {
      batches.push(current);
      current = [];
    }
    current.push(index);
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** The batches of the `ort` and `transformers.js` paths, as text indices. */
function embedderBatches(texts: string[], encode: (text: string) => number[]) {
  const encoded = texts.map(encode);
  const batches = planBatches(
    encoded.map((ids) => ids.length),
    batchSize,
    batchTokens,
  );
  return { encoded, batches };
}

async function measure(embedderName: string, path: string, texts: string[]): Promise<Measurement> {
  const resolveOnnxModel = onnxModelResolver({ cacheDir, modelDir: process.env['LME_MODEL_DIR'] });
  if (path === 'lme') {
    const embedder = createEmbedder(embedderName, { threads, batchSize, resolveOnnxModel });
    await embedder.embedDocuments({ texts: ['warm up the model'] });
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    for (let start = 0; start < texts.length; start += CALL_SIZE) {
      await embedder.embedDocuments({ texts: texts.slice(start, start + CALL_SIZE) });
    }
    const seconds = (performance.now() - started) / 1000;
    const cpuSeconds = cpuSince(cpuStarted);
    const truncated = embedder.truncated?.();
    await embedder.close?.();
    return {
      embedder: embedderName,
      path,
      texts: texts.length,
      seconds,
      cpuSeconds,
      peakRssMiB: peakRss(),
      ...(truncated === undefined ? {} : { truncated }),
    };
  }
  const catalog = loadModelCatalog();
  const choice = chooseModel(catalog, embedderName);
  const files = await openModelStore(catalog, { cacheDir, modelDir: process.env['LME_MODEL_DIR'] }).obtain(
    choice,
    { from: [] },
  );
  const encoder = createTokenEncoder(
    JSON.parse(readFileSync(files.tokenizer, 'utf8')),
    choice.model.maxTokens,
  );
  const prefixed = texts.map((text) => choice.model.documentPrefix + text);
  if (path === 'ort') {
    const ort = await import('onnxruntime-node');
    const session = await ort.InferenceSession.create(files.model, {
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
    });
    const started = performance.now();
    const cpuStarted = process.cpuUsage();
    // Tokenization is timed too: the embedder's figure includes it.
    for (let start = 0; start < prefixed.length; start += CALL_SIZE) {
      const { encoded, batches } = embedderBatches(
        prefixed.slice(start, start + CALL_SIZE),
        (text) => encoder.encode(text).ids,
      );
      for (const batch of batches) {
        const rows = batch.map((index) => encoded[index]!);
        const width = Math.max(...rows.map((row) => row.length));
        const ids = new BigInt64Array(rows.length * width);
        const mask = new BigInt64Array(rows.length * width);
        rows.forEach((row, r) => {
          row.forEach((id, c) => {
            ids[r * width + c] = BigInt(id);
            mask[r * width + c] = 1n;
          });
        });
        const dims = [rows.length, width];
        await session.run({
          input_ids: new ort.Tensor('int64', ids, dims),
          attention_mask: new ort.Tensor('int64', mask, dims),
          token_type_ids: new ort.Tensor('int64', new BigInt64Array(rows.length * width), dims),
        });
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const cpuSeconds = cpuSince(cpuStarted);
    await session.release();
    return { embedder: embedderName, path, texts: texts.length, seconds, cpuSeconds, peakRssMiB: peakRss() };
  }
  // transformers.js reads a hub-shaped folder: link the verified files into one.
  const folder = mkdtempSync(join(tmpdir(), 'lme-bench-tjs-'));
  const modelFolder = join(folder, choice.repository);
  mkdirSync(join(modelFolder, 'onnx'), { recursive: true });
  symlinkSync(files.model, join(modelFolder, 'onnx', 'model_quantized.onnx'));
  symlinkSync(files.tokenizer, join(modelFolder, 'tokenizer.json'));
  writeFileSync(join(modelFolder, 'config.json'), JSON.stringify({ model_type: 'bert' }));
  writeFileSync(
    join(modelFolder, 'tokenizer_config.json'),
    JSON.stringify({
      tokenizer_class: 'BertTokenizer',
      model_max_length: choice.model.maxTokens,
      do_lower_case: true,
      cls_token: '[CLS]',
      sep_token: '[SEP]',
      pad_token: '[PAD]',
      unk_token: '[UNK]',
      mask_token: '[MASK]',
    }),
  );
  const transformers = await import('@huggingface/transformers');
  transformers.env.allowRemoteModels = false;
  transformers.env.localModelPath = folder;
  const extractor = await transformers.pipeline('feature-extraction', choice.repository, {
    dtype: 'q8',
    session_options: { intraOpNumThreads: threads, interOpNumThreads: 1 },
  });
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  for (let start = 0; start < prefixed.length; start += CALL_SIZE) {
    const call = prefixed.slice(start, start + CALL_SIZE);
    const { batches } = embedderBatches(call, (text) => encoder.encode(text).ids);
    for (const batch of batches) {
      await extractor(
        batch.map((index) => call[index]!),
        { pooling: choice.model.pooling, normalize: true },
      );
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const cpuSeconds = cpuSince(cpuStarted);
  await extractor.dispose();
  return { embedder: embedderName, path, texts: texts.length, seconds, cpuSeconds, peakRssMiB: peakRss() };
}

/** CPU seconds (user + system) this process spent since `start`. */
function cpuSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
}

/**
 * This process's peak resident memory in MiB (VmHWM). Not `resourceUsage().maxRSS`: Linux carries
 * that over from the parent across fork and exec, so every child would report the parent's S file.
 */
function peakRss(): number {
  const line = readFileSync('/proc/self/status', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('VmHWM:'));
  return line ? Number(line.split(/\s+/)[1]) / 1024 : process.resourceUsage().maxRSS / 1024;
}

if (values.child) {
  const [embedderName, path] = JSON.parse(values.child) as [string, string];
  // The parent read S: a child holds only its texts, so its peak RSS is the embedder's.
  const texts = JSON.parse(readFileSync(values['texts-file']!, 'utf8')) as string[];
  const result = await measure(embedderName, path, texts);
  process.stdout.write(`${JSON.stringify(result)}\n`);
  process.exit(0);
}

const textsFile = join(mkdtempSync(join(tmpdir(), 'lme-bench-texts-')), 'texts.json');
const benchTexts = readTexts(Number(values.texts));
writeFileSync(textsFile, JSON.stringify(benchTexts));
const embedders = values.embedders.split(',');
const paths = values.paths.split(',');
const results: Measurement[] = [];
for (let repeat = 0; repeat < Number(values.repeats); repeat++) {
  for (const embedderName of embedders) {
    for (const path of paths) {
      if (path !== 'lme' && !embedderName.startsWith('hf:')) continue;
      const args = process.argv.slice(2).filter((arg) => !arg.startsWith('--child'));
      const child = spawnSync(
        process.execPath,
        [
          ...process.execArgv,
          fileURLToPath(import.meta.url),
          ...args,
          `--child=${JSON.stringify([embedderName, path])}`,
          `--texts-file=${textsFile}`,
        ],
        { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
      );
      const line = child.stdout.trim().split('\n').pop() ?? '';
      if (child.status !== 0 || !line.startsWith('{')) {
        console.error(`${embedderName} ${path}: failed (exit ${child.status})`);
        continue;
      }
      const result = JSON.parse(line) as Measurement;
      results.push(result);
      console.error(
        `${embedderName} ${path}: ${(result.texts / result.seconds).toFixed(1)} texts/s, ${(result.texts / result.cpuSeconds).toFixed(1)} texts per CPU s, peak RSS ${result.peakRssMiB.toFixed(0)} MiB`,
      );
    }
  }
}

const median = (numbers: number[]) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
console.log(
  `\n${benchTexts.length} distinct S ${values.documents === 'sessions' ? 'session documents' : 'user turns'}, ${threads} threads, calls of ${CALL_SIZE}; median of ${values.repeats} runs\n`,
);
console.log(
  '| embedder | path | texts/s | all runs | texts per CPU s | peak RSS MiB | cut at the token limit |',
);
console.log('|---|---|---:|---|---:|---:|---:|');
for (const embedderName of embedders) {
  for (const path of paths) {
    const runs = results.filter((result) => result.embedder === embedderName && result.path === path);
    if (runs.length === 0) continue;
    const rates = runs.map((run) => run.texts / run.seconds);
    const perCpu = median(runs.map((run) => run.texts / run.cpuSeconds));
    console.log(
      `| ${embedderName} | ${path} | ${median(rates).toFixed(1)} | ${rates.map((rate) => rate.toFixed(0)).join(', ')} | ${perCpu.toFixed(1)} | ${Math.max(...runs.map((run) => run.peakRssMiB)).toFixed(0)} | ${runs[0]!.truncated ?? ''} |`,
    );
  }
}

// lme against raw onnxruntime on the same texts: the cost of lme's embedder over the model itself.
for (const embedderName of embedders) {
  const rate = (path: string, seconds: (run: Measurement) => number) => {
    const runs = results.filter((result) => result.embedder === embedderName && result.path === path);
    return runs.length > 0 ? median(runs.map((run) => run.texts / seconds(run))) : undefined;
  };
  const [wall, cpu] = [(run: Measurement) => run.seconds, (run: Measurement) => run.cpuSeconds];
  const [lme, ort, lmeCpu, ortCpu] = [
    rate('lme', wall),
    rate('ort', wall),
    rate('lme', cpu),
    rate('ort', cpu),
  ];
  if (lme !== undefined && ort !== undefined && lmeCpu !== undefined && ortCpu !== undefined)
    console.log(
      `\n${embedderName}: lme takes ${(ort / lme).toFixed(2)}x the wall time of raw onnxruntime, ${(ortCpu / lmeCpu).toFixed(2)}x its CPU time`,
    );
}
