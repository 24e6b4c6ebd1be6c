/** Largest reply body lme reads from a server it calls (a provider, a reranker): 64 MB. */
export const MAX_REPLY_BYTES = 64 * 1024 * 1024;

/** A reply larger than the cap; not worth retrying. */
export class ReplyTooLargeError extends Error {
  readonly code = 'LME_REPLY_TOO_LARGE';
}

/**
 * The body of `response` as text, refused in one sentence naming `where` once it passes
 * `maxBytes`: on its Content-Length before reading, else as it streams in, so a server that
 * sends 1.5 GB costs at most `maxBytes` of memory.
 */
export async function readCappedText(
  response: Response,
  where: string,
  maxBytes: number = MAX_REPLY_BYTES,
  /** Called as each chunk arrives (an idle timer's reset). */
  onChunk?: () => void,
): Promise<string> {
  const refuse = async (cancel: () => Promise<void>): Promise<never> => {
    await cancel().catch(() => undefined);
    throw new ReplyTooLargeError(
      `${where} replied with more than ${Math.round(maxBytes / (1024 * 1024))} MB, the most lme reads of a reply.`,
    );
  };
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await refuse(async () => response.body?.cancel());
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    onChunk?.();
    size += value.length;
    if (size > maxBytes) await refuse(() => reader.cancel());
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
