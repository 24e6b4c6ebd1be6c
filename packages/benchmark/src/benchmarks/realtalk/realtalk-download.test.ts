import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REALTALK_CATALOG } from './realtalk-catalog.js';
import { downloadRealtalk, realtalkFolder } from './realtalk-download.js';
import { REALTALK_COMMIT, REALTALK_REPOSITORY, type RealtalkFile } from './realtalk-files.js';

const FIXTURES = resolve(import.meta.dirname, 'fixtures');
const PREFIX = `/${REALTALK_REPOSITORY}/${REALTALK_COMMIT}/data/`;
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((done) => server.close(done));
});

/** A loopback raw-GitHub stand-in serving the fixtures at `/<repository>/<commit>/data/<name>`. */
async function serveFixtures(alter: (bytes: Buffer) => Buffer = (bytes) => bytes): Promise<string> {
  const server = createServer((request, response) => {
    const url = request.url ?? '';
    const path = url.startsWith(PREFIX) ? join(FIXTURES, decodeURIComponent(url.slice(PREFIX.length))) : '';
    if (!path || !existsSync(path)) return void response.writeHead(404).end('not found');
    const bytes = alter(readFileSync(path));
    response.writeHead(200, { 'content-length': String(bytes.length) }).end(bytes);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const pinned: RealtalkFile[] = ['Chat_1_Ana_Ben.json', 'Chat_2_Cy_Dee.json'].map((name) => {
  const bytes = readFileSync(join(FIXTURES, name));
  return {
    path: `data/${name}`,
    bytes: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
});

describe('downloadRealtalk (loopback raw-GitHub server)', () => {
  it('fetches every pinned chat into <data dir>/realtalk, checks it, and skips what is there', async () => {
    const rawUrl = await serveFixtures();
    const dataDir = mkdtempSync(join(tmpdir(), 'lme-realtalk-dl-'));
    const catalog = REALTALK_CATALOG[0]!;
    expect(catalog.locate(dataDir).status).toBe('missing');
    expect(await downloadRealtalk({ dataDir, rawUrl, files: pinned })).toEqual({
      folder: realtalkFolder(dataDir),
      files: 2,
      fetched: 2,
      alreadyPresent: 0,
    });
    expect(readFileSync(join(dataDir, 'realtalk', 'Chat_2_Cy_Dee.json'))).toEqual(
      readFileSync(join(FIXTURES, 'Chat_2_Cy_Dee.json')),
    );
    expect(await downloadRealtalk({ dataDir, rawUrl, files: pinned })).toMatchObject({
      fetched: 0,
      alreadyPresent: 2,
    });
    // The catalog looks for the ten published names, which the stand-ins do not have.
    expect(catalog.locate(dataDir).status).toBe('missing');
  });

  it('deletes a file whose SHA-256 is not the pinned one and fails naming it', async () => {
    const rawUrl = await serveFixtures((bytes) => Buffer.from(bytes.toString('utf8').replace('Ana', 'Anb')));
    const dataDir = mkdtempSync(join(tmpdir(), 'lme-realtalk-dl-'));
    await expect(downloadRealtalk({ dataDir, rawUrl, files: pinned })).rejects.toThrow(
      /Chat_1_Ana_Ben\.json/,
    );
    expect(existsSync(join(dataDir, 'realtalk', 'Chat_1_Ana_Ben.json'))).toBe(false);
  });

  it('with no route to the server, fails in one sentence saying where else to get the chats, and leaves no folder', async () => {
    // A port nothing listens on: the connection is refused at once (no route, as offline).
    const dead = await new Promise<number>((done) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => done(port));
      });
    });
    const dataDir = mkdtempSync(join(tmpdir(), 'lme-realtalk-offline-'));
    const error = await downloadRealtalk({
      dataDir,
      rawUrl: `http://127.0.0.1:${dead}`,
      files: pinned,
    }).catch((caught: Error) => caught);
    expect((error as Error).message).toBe(
      `http://127.0.0.1:${dead}${PREFIX}Chat_1_Ana_Ben.json: cannot connect (ECONNREFUSED); fetch from a mirror of raw GitHub with --github-raw-url <url> (or LME_GITHUB_RAW_URL), or put data/Chat_*.json of ${REALTALK_REPOSITORY} at commit ${REALTALK_COMMIT.slice(0, 7)} in ${realtalkFolder(dataDir)} yourself (--data-dir or LME_DATA_DIR chooses the data folder).`,
    );
    expect(existsSync(realtalkFolder(dataDir))).toBe(false);
  });
});
