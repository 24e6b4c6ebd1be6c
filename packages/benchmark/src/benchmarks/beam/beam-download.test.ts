import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startCli } from '../../testing/run-cli-async.js';
import { beamTierFolder, downloadBeamTier } from './beam-download.js';
import { BEAM_COMMIT, BEAM_FILES, BEAM_REPOSITORY, type BeamFile } from './beam-files.js';

const FIXTURES = resolve(import.meta.dirname, 'fixtures');
const PREFIX = `/${BEAM_REPOSITORY}/${BEAM_COMMIT}/`;

/** A loopback raw-GitHub stand-in: serves `<root>/<path>` at `/<repository>/<commit>/<path>`, `alter` changing the bytes. */
async function serveFolder(root: string, alter: (bytes: Buffer) => Buffer = (bytes) => bytes) {
  const requested: string[] = [];
  const server: Server = createServer((request, response) => {
    const url = request.url ?? '';
    requested.push(url);
    const path = url.startsWith(PREFIX) ? join(root, decodeURIComponent(url.slice(PREFIX.length))) : '';
    if (!path || !existsSync(path)) {
      response.writeHead(404).end('not found');
      return;
    }
    const bytes = alter(readFileSync(path));
    response.writeHead(200, { 'content-length': String(bytes.length) }).end(bytes);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requested };
}
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((done) => server.close(done));
});

/** The stand-in tier as a pinned file list (its paths under a `chats/100K` folder). */
function standInFiles(): BeamFile[] {
  return ['1/chat.json', '1/probing_questions/probing_questions.json', '2/chat.json'].map((relative) => {
    const bytes = readFileSync(join(FIXTURES, 'tier', relative));
    return {
      path: `chats/100K/${relative}`,
      bytes: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    };
  });
}

describe('downloadBeamTier (loopback raw-GitHub server)', () => {
  it('fetches every pinned file from <raw>/<repository>/<commit>/<path>, checks its SHA-256, and skips what is there', async () => {
    // The server's tree is the repository's: chats/100K/... mapped onto the stand-in tier.
    const server = await serveFolder(join(FIXTURES, 'tier'));
    const dataDir = mkdtempSync(join(tmpdir(), 'lme-beam-dl-'));
    const served = standInFiles().map((file) => ({ ...file, path: file.path.replace('chats/100K/', '') }));
    const first = await downloadBeamTier({ name: 'beam-100k', dataDir, rawUrl: server.url, files: served });
    expect(first).toEqual({
      folder: beamTierFolder(dataDir, '100K'),
      files: 3,
      fetched: 3,
      alreadyPresent: 0,
    });
    expect(server.requested).toEqual(served.map((file) => `${PREFIX}${file.path}`));
    expect(readFileSync(join(dataDir, 'beam', '1', 'chat.json'))).toEqual(
      readFileSync(join(FIXTURES, 'tier', '1', 'chat.json')),
    );
    const again = await downloadBeamTier({ name: 'beam-100k', dataDir, rawUrl: server.url, files: served });
    expect(again).toMatchObject({ fetched: 0, alreadyPresent: 3 });
  });

  it('deletes a file whose bytes do not match the pinned SHA-256 and fails naming it', async () => {
    const server = await serveFolder(join(FIXTURES, 'tier'), (bytes) => {
      const copy = Buffer.from(bytes);
      copy[2] = copy[2] === 0x20 ? 0x0a : 0x20; // one byte changed, same length
      return copy;
    });
    const dataDir = mkdtempSync(join(tmpdir(), 'lme-beam-bad-'));
    const served = standInFiles().map((file) => ({ ...file, path: file.path.replace('chats/100K/', '') }));
    await expect(
      downloadBeamTier({ name: 'beam-100k', dataDir, rawUrl: server.url, files: served }),
    ).rejects.toThrow(
      /1[\\/]chat\.json: the downloaded file's SHA-256 is [0-9a-f]{64}, but benchmarks\/beam\/beam-files\.ts expects [0-9a-f]{64}; the download was deleted\./,
    );
    // Nothing left: the mismatching file deleted, and the folders made for it with it.
    expect(existsSync(join(dataDir, 'beam', '1'))).toBe(false);
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('with no route to the server, fails in one sentence saying where else to get the files, and leaves no folder', async () => {
    // A port nothing listens on: the connection is refused at once (no route, as offline).
    const dead = await new Promise<number>((done) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => done(port));
      });
    });
    const dataDir = join(mkdtempSync(join(tmpdir(), 'lme-beam-offline-')), 'data');
    const error = await downloadBeamTier({
      name: 'beam-100k',
      dataDir,
      rawUrl: `http://127.0.0.1:${dead}`,
      files: standInFiles(),
    }).catch((caught: Error) => caught);
    expect((error as Error).message).toBe(
      `http://127.0.0.1:${dead}${PREFIX}chats/100K/1/chat.json: cannot connect (ECONNREFUSED); fetch from a mirror of raw GitHub with --github-raw-url <url> (or LME_GITHUB_RAW_URL), or put the tier's files (${BEAM_REPOSITORY} at commit ${BEAM_COMMIT.slice(0, 7)}: chats/100K/<n>/chat.json and probing_questions/probing_questions.json) under ${beamTierFolder(dataDir, '100K')} yourself (--data-dir or LME_DATA_DIR chooses the data folder).`,
    );
    expect(existsSync(dataDir)).toBe(false);
  });

  it('refuses tiers it cannot pin, and unknown names, in one sentence', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lme-beam-none-'));
    await expect(downloadBeamTier({ name: 'beam-1m', dataDir })).rejects.toThrow(
      /^beam-1m is not offered: 26 of its 35 chat\.json files/,
    );
    await expect(downloadBeamTier({ name: 'beam-2k', dataDir })).rejects.toThrow(
      'Unknown BEAM dataset "beam-2k"; known: beam-100k, beam-500k.',
    );
  });

  it('pins 40 files for 100K and 70 for 500K: chat.json and probing questions of every conversation', () => {
    expect(BEAM_FILES['100K']).toHaveLength(40);
    expect(BEAM_FILES['500K']).toHaveLength(70);
    for (const file of BEAM_FILES['100K']!)
      expect(file.path).toMatch(
        /^chats\/100K\/\d+\/(chat\.json|probing_questions\/probing_questions\.json)$/,
      );
  });

  it('lists each conversation in order, its chat.json first, with the pinned size and SHA-256', () => {
    expect(BEAM_FILES['100K']!.slice(0, 2)).toEqual([
      {
        path: 'chats/100K/1/chat.json',
        bytes: 564977,
        sha256: 'ea71efd5dcc13f7366d3737b45d532eadb3d1497f3d6f23d1fa1c4004d5ffdf2',
      },
      {
        path: 'chats/100K/1/probing_questions/probing_questions.json',
        bytes: 31547,
        sha256: '047398ff1497674b11585e7b4829c3d64d2d5e63f7f3572c826b73ca1faaf898',
      },
    ]);
    expect(BEAM_FILES['500K']!.at(-1)).toEqual({
      path: 'chats/500K/35/probing_questions/probing_questions.json',
      bytes: 31486,
      sha256: 'e1be0d82a8e694f8092b21b584eb3ac57436bb4719b5f979f673e28f649e33f3',
    });
    for (const files of Object.values(BEAM_FILES))
      expect(files.map((file) => file.path.split('/')[2])).toEqual(
        files.map((_, index) => String(Math.floor(index / 2) + 1)),
      );
  });
});

const BEAM_DIR = process.env.LME_BEAM_DIR;
describe.skipIf(!BEAM_DIR || !existsSync(join(BEAM_DIR, 'chats', '100K')))(
  `lme datasets download beam-100k from a loopback copy of the real files (LME_BEAM_DIR=${BEAM_DIR ?? 'unset: skipped, set it to a folder holding chats/100K'})`,
  () => {
    it('downloads the 40 files, verifies each against the pinned SHA-256, and the folder loads', async () => {
      const server = await serveFolder(BEAM_DIR!);
      const dataDir = mkdtempSync(join(tmpdir(), 'lme-beam-cli-'));
      const result = await startCli([
        'datasets',
        'download',
        'beam-100k',
        '--data-dir',
        dataDir,
        '--github-raw-url',
        server.url,
      ]).done;
      expect(result.stderr).not.toMatch(/Error/);
      expect(result.status).toBe(0);
      expect(result.stdout).toContain(
        `beam-100k: 40 files (40 downloaded, 0 already present), SHA-256 verified: ${join(dataDir, 'beam', 'chats', '100K')}`,
      );
      const info = await startCli(['datasets', 'info', 'beam-100k', '--data-dir', dataDir]).done;
      expect(info.stdout).toContain(join(dataDir, 'beam', 'chats', '100K'));
      expect(info.stdout).toContain('| total                    |       400 |');
    }, 120_000);
  },
);
