import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMITTED_SAMPLE } from '../benchmarks/longmemeval/load-longmemeval.js';
import { loadDatasetSources } from '../dataset/dataset-sources.js';
import { REPO_ROOT } from '../testing/run-cli.js';
import { startCli } from '../testing/run-cli-async.js';

/** The committed sample, uncompressed, served as if it were the hub's S file. */
const sampleJson = gunzipSync(readFileSync(COMMITTED_SAMPLE));
const sampleSha256 = createHash('sha256').update(sampleJson).digest('hex');
const revision = 'a'.repeat(40);
const dir = mkdtempSync(join(tmpdir(), 'lme-datasets-cli-'));
let server: Server;
let hubUrl: string;

/** A datasets config like configs/datasets.json, with the sample as S and no checksum for oracle. */
function writeSources(name: string): string {
  const sources = loadDatasetSources();
  const path = join(dir, name);
  writeFileSync(
    path,
    JSON.stringify({
      ...sources,
      revision,
      files: {
        s: {
          file: 'longmemeval_s_cleaned.json',
          bytes: sampleJson.length,
          sha256: sampleSha256,
          questions: 22,
        },
        oracle: { file: 'longmemeval_oracle.json', bytes: null, sha256: null },
      },
      knownCopies: [],
    }),
  );
  return path;
}

beforeAll(async () => {
  server = createServer((request, response) => {
    const prefix = `/datasets/xiaowu0162/longmemeval-cleaned/resolve/${revision}/`;
    if (
      request.url === `${prefix}longmemeval_s_cleaned.json` ||
      request.url === `${prefix}longmemeval_oracle.json`
    ) {
      response.writeHead(200, { 'content-length': sampleJson.length }).end(sampleJson);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  hubUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((done) => server.close(() => done())));

describe('lme datasets', () => {
  it('downloads a file from the hub address, verifies it by name, and reports it once changed', async () => {
    const sources = writeSources('sources.json');
    const dataDir = join(dir, 'data');
    const download = await startCli(['datasets', 'download', 's', '--sources', sources], {
      LME_HUB_URL: hubUrl,
      LME_DATA_DIR: dataDir,
    }).done;
    expect(download.stderr).toContain(
      `${hubUrl}/datasets/xiaowu0162/longmemeval-cleaned/resolve/${revision}/`,
    );
    expect(download.stderr).toMatch(/downloading longmemeval_s_cleaned\.json 11\.2 MB\/11\.2 MB \(100%\)/);
    expect(download.stdout).toBe(
      `s: downloaded, SHA-256 verified: ${join(dataDir, 'longmemeval_s_cleaned.json')}\n`,
    );
    expect(download.status).toBe(0);

    const verify = await startCli(['datasets', 'verify', 's', '--sources', sources, '--data-dir', dataDir])
      .done;
    expect(verify.stdout).toMatch(
      /^s: VERIFIED .*longmemeval_s_cleaned\.json: the published longmemeval_s_cleaned\.json at revision a{40}\n$/,
    );
    expect(verify.status).toBe(0);

    writeFileSync(join(dataDir, 'longmemeval_s_cleaned.json'), sampleJson.subarray(0, sampleJson.length - 1));
    const changed = await startCli(['datasets', 'verify', 's', '--sources', sources, '--data-dir', dataDir])
      .done;
    expect(changed.stdout).toMatch(
      /^s: MISMATCH .*: expected [0-9a-f]{64} \(the published longmemeval_s_cleaned\.json/,
    );
    expect(changed.stderr).toContain('lme: s did not verify (see above)');
    expect(changed.status).toBe(1);
  });

  it('keeps a file with no known checksum but says, on download and verify, that it is unverified', async () => {
    const sources = writeSources('sources-unverified.json');
    const dataDir = join(dir, 'unverified');
    const download = await startCli([
      'datasets',
      'download',
      'oracle',
      '--sources',
      sources,
      '--hub-url',
      hubUrl,
      '--data-dir',
      dataDir,
    ]).done;
    expect(download.stdout).toContain('oracle: downloaded, UNVERIFIED:');
    expect(download.stderr).toContain(
      'holds no SHA-256 for longmemeval_oracle.json, so the file could not be verified',
    );
    const verify = await startCli(['datasets', 'verify', '--sources', sources, '--data-dir', dataDir]).done;
    expect(verify.stdout).toContain('oracle: UNVERIFIED');
    expect(verify.stdout).toContain('s: MISSING: no longmemeval_s_cleaned.json[.gz]');
    expect(verify.status).toBe(0);
  });

  it('names the address of a file the hub does not have', async () => {
    const result = await startCli([
      'datasets',
      'download',
      's',
      '--hub-url',
      `${hubUrl}/nowhere`,
      '--data-dir',
      join(dir, 'none'),
    ]).done;
    expect(result.stderr).toMatch(
      /lme: http:\/\/127\.0\.0\.1:\d+\/nowhere\/datasets\/.*longmemeval_s_cleaned\.json: HTTP 404 Not Found/,
    );
    expect(result.status).toBe(1);
  });

  it('finds the committed sample with LME_DATA_DIR pointing elsewhere, and shows LoCoMo categories', async () => {
    const sample = await startCli(['datasets', 'info', 'sample'], { LME_DATA_DIR: join(dir, 'elsewhere') })
      .done;
    expect(sample.stdout.split('\n')[0]).toBe(COMMITTED_SAMPLE);
    expect(sample.status).toBe(0);

    const locomo = await startCli([
      'datasets',
      'info',
      resolve(REPO_ROOT, 'datasets/fixtures/locomo-mini.json'),
    ]).done;
    expect(locomo.stdout).toContain(
      'LoCoMo categories:\ncategory 4 single-hop: 2 questions\ncategory 1 multi-hop: 1 questions',
    );
    expect(locomo.stderr).toContain(
      'lme: warning: question conv-mini_q4 (conversation conv-mini qa[3]): evidence "D1:2; D3:4"',
    );
  });
});
