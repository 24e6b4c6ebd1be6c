import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadDatasetFile } from './download-dataset-file.js';
import { DOWNLOAD_TIMEOUTS } from './download-request.js';

/** A loopback file server that honours `Range` and can cut the connection mid-body once. */
type FileServer = { url: string; requests: Array<{ path: string; range?: string }>; cutNextAfter?: number };

const files = new Map<string, Buffer>();
const content = Buffer.from(Array.from({ length: 300_000 }, (_, index) => (index * 7919) % 251));
const sha256 = createHash('sha256').update(content).digest('hex');
let server: Server;
let hub: FileServer;
let dir: string;

beforeAll(async () => {
  files.set('/data.json', content);
  files.set('/slow.json', content);
  dir = mkdtempSync(join(tmpdir(), 'lme-download-'));
  hub = { url: '', requests: [] };
  server = createServer((request, response) => {
    const path = request.url ?? '';
    hub.requests.push({ path, range: request.headers.range });
    if (path === '/silent.json') return; // never answers
    if (path === '/stall.json') {
      // Headers and a first piece, then nothing more.
      response.writeHead(200, { 'content-length': content.length });
      response.write(content.subarray(0, 1000));
      return;
    }
    const body = files.get(path);
    if (!body) {
      response.writeHead(404, 'Not Found').end('Entry not found');
      return;
    }
    const from = Number(/^bytes=(\d+)-$/.exec(request.headers.range ?? '')?.[1] ?? 0);
    const slice = body.subarray(from);
    response.writeHead(from > 0 ? 206 : 200, {
      'content-length': slice.length,
      ...(from > 0 ? { 'content-range': `bytes ${from}-${body.length - 1}/${body.length}` } : {}),
    });
    if (path === '/slow.json') {
      // Sent in pieces, so two downloads of it overlap.
      const pieces = Array.from({ length: 10 }, (_, index) =>
        slice.subarray(index * 30_000, (index + 1) * 30_000),
      );
      const next = () => {
        const piece = pieces.shift();
        if (piece === undefined) response.end();
        else response.write(piece, () => setTimeout(next, 5));
      };
      next();
      return;
    }
    const cut = hub.cutNextAfter;
    if (cut !== undefined) {
      hub.cutNextAfter = undefined;
      response.write(slice.subarray(0, cut), () => setImmediate(() => request.socket.destroy()));
      return;
    }
    response.end(slice);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  hub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
);

function target(name: string): string {
  return join(mkdtempSync(join(dir, 'case-')), name);
}

describe('downloadDatasetFile', () => {
  it('downloads, checks the SHA-256 and reports progress up to the full size', async () => {
    const path = target('data.json');
    const progress: number[] = [];
    const result = await downloadDatasetFile({
      url: `${hub.url}/data.json`,
      target: path,
      bytes: content.length,
      sha256,
      onProgress: (received) => progress.push(received),
    });
    expect(result).toMatchObject({ path, sha256, verified: true, alreadyPresent: false, resumedFrom: 0 });
    expect(readFileSync(path).equals(content)).toBe(true);
    expect(existsSync(`${path}.part`)).toBe(false);
    expect(progress.at(-1)).toBe(content.length);
  });

  it('keeps the bytes of a cut connection and resumes with a Range request', async () => {
    const path = target('data.json');
    const options = { url: `${hub.url}/data.json`, target: path, bytes: content.length, sha256 };
    hub.cutNextAfter = 100_000;
    await expect(downloadDatasetFile(options)).rejects.toThrow(
      /the connection broke after \d+ of 300000 bytes .*data\.json\.part keeps them, run the same command again to resume/,
    );
    expect(existsSync(path)).toBe(false);
    const kept = readFileSync(`${path}.part`).length;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(content.length);

    hub.requests = [];
    const result = await downloadDatasetFile(options);
    expect(hub.requests).toEqual([{ path: '/data.json', range: `bytes=${kept}-` }]);
    expect(result).toMatchObject({ verified: true, resumedFrom: kept });
    expect(readFileSync(path).equals(content)).toBe(true);
  });

  it('deletes a download whose checksum does not match, saying what was expected', async () => {
    const path = target('data.json');
    const wrong = '0'.repeat(64);
    await expect(
      downloadDatasetFile({
        url: `${hub.url}/data.json`,
        target: path,
        bytes: content.length,
        sha256: wrong,
        checksumSource: 'configs/datasets.json',
      }),
    ).rejects.toThrow(
      `${path}: the downloaded file's SHA-256 is ${sha256}, but configs/datasets.json expects ${wrong}; the download was deleted.`,
    );
    expect(existsSync(path)).toBe(false);
    expect(existsSync(`${path}.part`)).toBe(false);
  });

  it('deletes a complete download of another size instead of offering to resume it', async () => {
    const path = target('data.json');
    await expect(
      downloadDatasetFile({ url: `${hub.url}/data.json`, target: path, bytes: content.length + 10, sha256 }),
    ).rejects.toThrow(
      `${hub.url}/data.json: the server's file has ${content.length} bytes, but the dataset config expects ${content.length + 10}; the download was deleted.`,
    );
    expect(existsSync(`${path}.part`)).toBe(false);
  });

  /** A fetch whose body never ends (1 MB chunks), counting the bytes it gave, with these headers. */
  function endlessFetch(headers: Record<string, string>) {
    const served = { bytes: 0 };
    const fetchEndless = (async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            served.bytes += 1 << 20;
            controller.enqueue(new Uint8Array(1 << 20));
          },
        }),
        { status: 200, headers },
      )) as unknown as typeof fetch;
    return { served, fetch: fetchEndless };
  }

  it('refuses a Content-Length larger than the expected size before writing a byte', async () => {
    const path = target('big.json');
    const endless = endlessFetch({ 'content-length': String(100 * content.length) });
    await expect(
      downloadDatasetFile({
        url: 'http://mirror.test/big.json',
        target: path,
        bytes: content.length,
        sha256,
        fetch: endless.fetch,
      }),
    ).rejects.toThrow(
      `http://mirror.test/big.json: the server's file has ${100 * content.length} bytes, but the dataset config expects ${content.length}; nothing was downloaded.`,
    );
    expect(existsSync(`${path}.part`)).toBe(false);
    expect(endless.served.bytes).toBeLessThanOrEqual(2 << 20);
  });

  it('stops an endless body at the expected size and deletes it', async () => {
    const path = target('endless.json');
    const endless = endlessFetch({});
    await expect(
      downloadDatasetFile({
        url: 'http://mirror.test/endless.json',
        target: path,
        bytes: 3 << 20,
        sha256,
        fetch: endless.fetch,
      }),
    ).rejects.toThrow(
      `http://mirror.test/endless.json: the server sent more than the ${3 << 20} bytes the dataset config expects; the download was stopped there and deleted.`,
    );
    expect(existsSync(`${path}.part`)).toBe(false);
    expect(endless.served.bytes).toBeLessThanOrEqual(6 << 20);
  });

  it('names the address and the status of a missing file', async () => {
    const path = target('absent.json');
    await expect(
      downloadDatasetFile({ url: `${hub.url}/absent.json`, target: path, bytes: null, sha256: null }),
    ).rejects.toThrow(`${hub.url}/absent.json: HTTP 404 Not Found: the file is not at this address`);
    expect(existsSync(path)).toBe(false);
    expect(existsSync(`${path}.part`)).toBe(false);
  });

  it('keeps a file with no known checksum but says it is unverified', async () => {
    const path = target('data.json');
    const result = await downloadDatasetFile({
      url: `${hub.url}/data.json`,
      target: path,
      bytes: null,
      sha256: null,
    });
    expect(result).toMatchObject({ verified: false, sha256 });
    expect(readFileSync(path).equals(content)).toBe(true);
  });

  it('checks a file already in place instead of fetching it, and refuses one that differs', async () => {
    const path = target('data.json');
    writeFileSync(path, content);
    hub.requests = [];
    const result = await downloadDatasetFile({
      url: `${hub.url}/data.json`,
      target: path,
      bytes: content.length,
      sha256,
    });
    expect(result).toMatchObject({ alreadyPresent: true, verified: true });
    expect(hub.requests).toEqual([]);
    writeFileSync(path, 'changed');
    await expect(
      downloadDatasetFile({ url: `${hub.url}/data.json`, target: path, bytes: content.length, sha256 }),
    ).rejects.toThrow(
      /already exists but its SHA-256 is [0-9a-f]{64}, not .*; delete it to download it again/,
    );
  });

  // Issue 36, item 4: two fetches of one model (two cold runs in one cache) wrote the same
  // `.part` file and both failed.
  it('lets two downloads of the same file at once take turns: both succeed, one fetches', async () => {
    const path = target('slow.json');
    const before = hub.requests.length;
    const download = () =>
      downloadDatasetFile({ url: `${hub.url}/slow.json`, target: path, bytes: content.length, sha256 });
    const results = await Promise.allSettled([download(), download(), download()]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    const values = results.map(
      (result) => (result as PromiseFulfilledResult<{ alreadyPresent: boolean }>).value,
    );
    expect(values.filter((value) => !value.alreadyPresent)).toHaveLength(1);
    expect(readFileSync(path).equals(content)).toBe(true);
    expect(hub.requests.length - before).toBe(1);
    expect(existsSync(`${path}.part`) || existsSync(`${path}.lock`)).toBe(false);
  });

  it('refuses a .part that is a symbolic link instead of appending through it', async () => {
    const path = target('data.json');
    const outside = join(mkdtempSync(join(dir, 'outside-')), 'victim');
    writeFileSync(outside, 'kept');
    symlinkSync(outside, `${path}.part`);
    await expect(
      downloadDatasetFile({ url: `${hub.url}/data.json`, target: path, bytes: content.length, sha256 }),
    ).rejects.toThrow(
      `${path}.part is a symbolic link; lme writes a download there itself and never through a link: delete it and run the same command again.`,
    );
    expect(readFileSync(outside, 'utf8')).toBe('kept');
  });

  it('refuses a target that is a FIFO or a link to /dev/zero instead of reading it forever', async () => {
    const fifo = target('data.json');
    execFileSync('mkfifo', [fifo]);
    const zero = target('data.json');
    symlinkSync('/dev/zero', zero);
    for (const path of [fifo, zero]) {
      await expect(
        downloadDatasetFile({ url: `${hub.url}/data.json`, target: path, bytes: content.length, sha256 }),
      ).rejects.toThrow(
        `${path} exists but is not a regular file (a device, a pipe or a socket); move it away to download there.`,
      );
    }
  });

  it('ends a download from a server that never answers, or stalls after its headers, with lme’s timeouts', async () => {
    // lme's own bounds: a silent server ends within 90 s (undici alone waits 300 s).
    expect(DOWNLOAD_TIMEOUTS.connectMs + DOWNLOAD_TIMEOUTS.idleMs).toBeLessThanOrEqual(90_000);
    const timeouts = { connectMs: 200, idleMs: 200 };
    await expect(
      downloadDatasetFile({
        url: `${hub.url}/silent.json`,
        target: target('silent.json'),
        bytes: content.length,
        sha256,
        timeouts,
      }),
    ).rejects.toThrow(`${hub.url}/silent.json: the server did not answer within 0.2 s (connect timeout).`);
    const stalled = target('stall.json');
    await expect(
      downloadDatasetFile({
        url: `${hub.url}/stall.json`,
        target: stalled,
        bytes: content.length,
        sha256,
        timeouts,
      }),
    ).rejects.toThrow(
      `${hub.url}/stall.json: the connection broke after 1000 of ${content.length} bytes (no byte for 0.2 s, idle timeout); ${stalled}.part keeps them, run the same command again to resume.`,
    );
  });
});
