import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { cacheFolderProblem } from '../core/cache-folder-problem.js';
import { makeDirectory } from '../core/make-directory.js';
import { removeMatching } from '../core/remove-matching.js';
import type { ChatClient, ChatCompleteOptions, ChatCompleteResult, ChatUsage } from './chat-client.js';

export type CompletionCacheOptions = {
  /** Cache root (the CLI's `--cache-dir`); entries go to `<dir>/llm/` (see completionCacheFolder). */
  dir: string;
  /**
   * Told once, in one sentence naming the folder, when entries cannot be written (a full or
   * read-only folder) or read; the completion is still returned.
   */
  onWarning?: ((message: string) => void) | undefined;
  /**
   * The endpoint this client calls, as `endpointOrigin` gives it (no credentials, no query):
   * stored in new entries, so a hit made through another endpoint can be told apart.
   */
  endpoint?: string | undefined;
  /** Told of each answer served from an entry another endpoint made (its endpoint). */
  onOtherEndpoint?: ((endpoint: string) => void) | undefined;
};

/**
 * What one cache file holds: the response and the endpoint's origin and path that made it, never
 * the prompt or a key. `endpoint` is absent from entries of older versions (still read).
 */
type CacheEntry = {
  v: 1;
  model: string;
  endpoint?: string;
  texts: string[];
  usage: ChatUsage;
  createdAt: string;
};

/**
 * An endpoint URL as cache entries and run files name it: scheme, host, port and path, never the
 * credentials, query or fragment a URL may carry (`http://other:8000/v1`).
 */
export function endpointOrigin(baseURL: string): string {
  try {
    const url = new URL(baseURL);
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return 'an invalid base URL';
  }
}

const KEY_VERSION = 'lme-chat-completion-v1';

/**
 * The cache key: sha256 over what determines the output (model, messages, temperature, max
 * tokens, n, seed, and `topLogprobs` and a `sampleIndex` above 0 when given). Retries, timeouts,
 * concurrency, the endpoint and the key are left out, so a cache filled through one proxy serves the
 * same model through another (each entry records the endpoint that made it, and such a hit is
 * reported: `onOtherEndpoint`).
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
  let warned = false;
  const warnOnce = (error: unknown) => {
    if (warned) return;
    warned = true;
    options.onWarning?.(
      cacheFolderProblem({
        what: 'LLM cache',
        folder,
        error,
        consequence: ', so answers are not cached and a later run pays for them again',
      }),
    );
  };
  return {
    id: client.id,
    async complete(request: ChatCompleteOptions): Promise<ChatCompleteResult> {
      request.signal?.throwIfAborted();
      const started = performance.now();
      const key = completionCacheKey(request);
      const file = join(folder, key.slice(0, 2), `${key}.json`);
      const hit = await readEntry(file, warnOnce);
      if (hit) {
        if (hit.endpoint !== undefined && options.endpoint !== undefined && hit.endpoint !== options.endpoint)
          options.onOtherEndpoint?.(hit.endpoint);
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
        ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
        texts: result.texts,
        usage: result.usage,
        createdAt: new Date().toISOString(),
      };
      try {
        await writeEntry(file, entry);
      } catch (error) {
        warnOnce(error);
      }
      return result;
    },
  };
}

async function readEntry(file: string, onError: (error: unknown) => void): Promise<CacheEntry | undefined> {
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (error) {
    // A missing entry is a miss; any other error (a folder that cannot be read) is told once.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') onError(error);
    return undefined;
  }
  try {
    const entry = JSON.parse(raw) as Partial<CacheEntry>;
    const valid =
      entry.v === 1 &&
      Array.isArray(entry.texts) &&
      entry.texts.every((text) => typeof text === 'string') &&
      (entry.endpoint === undefined || typeof entry.endpoint === 'string') &&
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
