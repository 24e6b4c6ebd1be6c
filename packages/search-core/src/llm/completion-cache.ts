import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { makeDirectory } from '../core/make-directory.js';
import { removeMatching } from '../core/remove-matching.js';
import type { ChatClient, ChatCompleteOptions, ChatCompleteResult, ChatUsage } from './chat-client.js';

export type CompletionCacheOptions = {
  /** Cache root (the CLI's `--cache-dir`); entries go to `<dir>/llm/` (see completionCacheFolder). */
  dir: string;
  /** Told when an entry cannot be written; the completion is still returned. */
  onWarning?: ((message: string) => void) | undefined;
};

/** What one cache file holds: the response only, never the prompt, the endpoint or a key. */
type CacheEntry = {
  v: 1;
  model: string;
  texts: string[];
  usage: ChatUsage;
  createdAt: string;
};

const KEY_VERSION = 'lme-chat-completion-v1';

/**
 * The cache key: sha256 over what determines the output (model, messages, temperature, max
 * tokens, n, seed, and `topLogprobs` and a `sampleIndex` above 0 when given). Retries, timeouts, concurrency, the endpoint and
 * the key are left out, so a cache filled through one proxy serves the same model through another.
 * `topLogprobs` is appended only when set, so the key of every request without it is unchanged.
 */
export function completionCacheKey(request: ChatCompleteOptions): string {
  const material = JSON.stringify([
    KEY_VERSION,
    request.model,
    request.messages.map((message) => [message.role, message.content]),
    request.temperature,
    request.maxTokens,
    request.n ?? 1,
    request.seed ?? null,
    ...(request.topLogprobs === undefined ? [] : [{ topLogprobs: request.topLogprobs }]),
    ...(request.sampleIndex ? [{ sampleIndex: request.sampleIndex }] : []),
  ]);
  return createHash('sha256').update(material).digest('hex');
}

/** The one folder of cached completions below a cache root: `<dir>/llm`. */
export function completionCacheFolder(dir: string): string {
  return join(dir, 'llm');
}

/**
 * Serves identical requests from disk. Layout: one small JSON file per key,
 * `<dir>/llm/<first two hex digits>/<sha256>.json`, holding only the completion texts and usage
 * (prompts of 100k tokens are not stored again).
 *
 * Why one file per key rather than JSONL segments: an entry is written to a temporary file and
 * renamed into place, which is atomic on POSIX file systems, so a reader never sees half an entry,
 * a crash leaves at most a stray `.tmp` file, and concurrent processes writing the same key race
 * harmlessly (identical content, last rename wins). A lookup is one `readFile`, with no index to
 * load at start-up and no compaction; a full LongMemEval run makes a few thousand entries, which
 * the two-hex-digit fan-out keeps at a few dozen files per directory.
 */
export function withCompletionCache(client: ChatClient, options: CompletionCacheOptions): ChatClient {
  const folder = completionCacheFolder(options.dir);
  return {
    id: client.id,
    async complete(request: ChatCompleteOptions): Promise<ChatCompleteResult> {
      request.signal?.throwIfAborted();
      const started = performance.now();
      const key = completionCacheKey(request);
      const file = join(folder, key.slice(0, 2), `${key}.json`);
      const hit = await readEntry(file);
      if (hit) {
        return {
          text: hit.texts[0] ?? '',
          texts: hit.texts,
          usage: hit.usage,
          cached: true,
          latencyMs: performance.now() - started,
        };
      }
      const result = await client.complete(request);
      const entry: CacheEntry = {
        v: 1,
        model: request.model,
        texts: result.texts,
        usage: result.usage,
        createdAt: new Date().toISOString(),
      };
      try {
        await writeEntry(file, entry);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        options.onWarning?.(`Could not write completion cache entry ${file}: ${reason}`);
      }
      return result;
    },
  };
}

async function readEntry(file: string): Promise<CacheEntry | undefined> {
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const entry = JSON.parse(raw) as Partial<CacheEntry>;
    const valid =
      entry.v === 1 &&
      Array.isArray(entry.texts) &&
      entry.texts.every((text) => typeof text === 'string') &&
      typeof entry.usage?.promptTokens === 'number' &&
      typeof entry.usage.completionTokens === 'number';
    return valid ? (entry as CacheEntry) : undefined;
  } catch {
    return undefined;
  }
}

async function writeEntry(file: string, entry: CacheEntry): Promise<void> {
  await makeDirectory(join(file, '..'));
  await writeFileAtomic(file, `${JSON.stringify(entry)}\n`);
}

export type CompletionCacheSummary = { dir: string; entries: number; bytes: number };

/** What `lme cache stats` shows of the completion cache: entries and bytes below `<dir>/llm`. */
export async function readCompletionCacheStats(options: { dir: string }): Promise<CompletionCacheSummary> {
  const folder = completionCacheFolder(options.dir);
  const summary: CompletionCacheSummary = { dir: folder, entries: 0, bytes: 0 };
  let names: string[];
  try {
    names = await readdir(folder, { recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return summary;
    throw error;
  }
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    const size = await stat(join(folder, name)).then(
      (info) => info.size,
      () => undefined,
    );
    if (size === undefined) continue; // removed meanwhile
    summary.entries += 1;
    summary.bytes += size;
  }
  return summary;
}

/**
 * What `lme cache clear` does to the completion cache: removes the entries of `<dir>/llm` (and the
 * temporary files of unfinished writes), then its empty folders; any other file stays.
 */
export async function clearCompletionCache(options: { dir: string }): Promise<CompletionCacheSummary> {
  const before = await readCompletionCacheStats(options);
  await removeMatching(before.dir, (path) => /^[0-9a-f]{2}\/[0-9a-f]{64}\.json(\.[0-9a-z]+)?$/.test(path));
  return before;
}
