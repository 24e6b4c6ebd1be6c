export type DownloadTimeouts = {
  /** From the request until the response's headers: a server that never answers. */
  connectMs: number;
  /** Between two pieces of the body: a server that stalls after its headers. */
  idleMs: number;
};

/**
 * lme's own bounds on a download (undici's are 300 s each): 30 s to answer, 60 s of silence in
 * the body, so a silent server ends a download within 90 s with a sentence saying which.
 */
export const DOWNLOAD_TIMEOUTS: DownloadTimeouts = { connectMs: 30_000, idleMs: 60_000 };

/** A download that could not reach the server (no route, refused, no answer in time): the caller may add where else to get the file. */
export class DownloadConnectionError extends Error {}

/** The body's idle watch: `arm` before each read, `disarm` when done; `fired` once it aborted the body. */
export type IdleWatch = { arm(): void; disarm(): void; readonly fired: boolean; readonly ms: number };

/**
 * The request, bounded: no headers within `connectMs` aborts it (a server that never answers);
 * the returned watch aborts the body after `idleMs` without a byte (one that stalls after its headers).
 */
export async function request(
  fetchImplementation: typeof fetch,
  url: string,
  from: number,
  timeouts: DownloadTimeouts,
): Promise<{ response: Response; idle: IdleWatch }> {
  const controller = new AbortController();
  let connectFired = false;
  const connectTimer = setTimeout(() => {
    connectFired = true;
    controller.abort();
  }, timeouts.connectMs);
  let response: Response;
  try {
    response = await fetchImplementation(url, {
      headers: from > 0 ? { Range: `bytes=${from}-` } : {},
      signal: controller.signal,
    });
  } catch (error) {
    if (connectFired)
      throw new DownloadConnectionError(
        `${url}: the server did not answer within ${seconds(timeouts.connectMs)} (connect timeout).`,
      );
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new DownloadConnectionError(
      `${url}: cannot connect (${cause?.code ?? cause?.message ?? (error as Error).message}).`,
    );
  } finally {
    clearTimeout(connectTimer);
  }
  let idleTimer: NodeJS.Timeout | undefined;
  let idleFired = false;
  const idle: IdleWatch = {
    arm() {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => {
        idleFired = true;
        controller.abort();
      }, timeouts.idleMs);
    },
    disarm: () => clearTimeout(idleTimer),
    get fired() {
      return idleFired;
    },
    ms: timeouts.idleMs,
  };
  return { response, idle };
}

/** `30 s`, `0.1 s`. */
export function seconds(ms: number): string {
  return `${ms / 1000} s`;
}

/** The first byte a 206 response holds, from `Content-Range: bytes <start>-<end>/<size>`. */
export function rangeStart(response: Response): number | undefined {
  const match = /^bytes (\d+)-/.exec(response.headers.get('content-range') ?? '');
  return match ? Number(match[1]) : undefined;
}

export function totalOf(response: Response, start: number): number | null {
  const length = Number(response.headers.get('content-length'));
  return Number.isFinite(length) && length > 0 ? start + length : null;
}

export function hint(status: number): string {
  if (status === 404)
    return ': the file is not at this address (check the revision and file name in the dataset config).';
  if (status === 401 || status === 403) return ': the hub refused access (a gated or private file?).';
  return '.';
}
