import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { mountTmpfs, unmountTmpfs } from '@lme/search-core/testing';
import { describe, expect, it } from 'vitest';
import { groupConfig, parseRunConfig } from '../../config/run-sections.js';
import { REPO_ROOT } from '../../testing/run-cli.js';
import { createQaStage } from '../phases/qa-stage.js';
import { preflightRun } from './preflight.js';

const SAMPLE = resolve(REPO_ROOT, 'datasets', 'sample', 'longmemeval_s_sample.json.gz');
const ENVIRONMENT = { OPENAI_API_KEY: 'sk-test-preflight-1234' };

describe('reader settings', () => {
  // --reader-context turn over whole sessions: a mode the official script does not have.
  const config = parseRunConfig({
    readerModel: 'gpt-test',
    readerContext: 'turn',
    provider: 'oracle',
    out: mkdtempSync(join(tmpdir(), 'lme-preflight-')),
  });

  it('are refused by preflight, before any work, naming the flags', async () => {
    await expect(
      preflightRun({ sections: groupConfig(config), datasetPath: SAMPLE, environment: ENVIRONMENT }),
    ).rejects.toThrow(
      /^--reader-context turn reads retrieved turns .*--provider oracle gives whole sessions/,
    );
  });

  it('are checked once: the QA stage, built after preflight, does not check them again', async () => {
    await expect(createQaStage(config, ENVIRONMENT)).resolves.toBeDefined();
  });
});

describe('the answer source', () => {
  // --answers provider from a provider that cannot answer: refused once, by preflight.
  const config = parseRunConfig({
    answers: 'provider',
    provider: 'oracle',
    out: mkdtempSync(join(tmpdir(), 'lme-preflight-')),
  });

  it('is refused by preflight, before any work', async () => {
    await expect(
      preflightRun({ sections: groupConfig(config), datasetPath: SAMPLE, environment: ENVIRONMENT }),
    ).rejects.toThrow(/--answers provider/);
  });

  it('is checked once: the QA stage, built after preflight, does not check it again', async () => {
    await expect(createQaStage(config, ENVIRONMENT)).resolves.toBeDefined();
  });
});

// Issue 36: a corrupted ONNX file in --model-dir failed every question instead of the run.
describe('the hf: model in --model-dir', () => {
  it('is checked by preflight: a file that is not the pinned one stops the run, naming it', async () => {
    const modelDir = mkdtempSync(join(tmpdir(), 'lme-preflight-models-'));
    mkdirSync(join(modelDir, 'onnx'));
    writeFileSync(join(modelDir, 'onnx', 'model_quantized.onnx'), 'not an ONNX model');
    const config = parseRunConfig({
      retriever: 'dense',
      embedder: 'hf:Xenova/bge-small-en-v1.5',
      modelDir,
      cacheDir: mkdtempSync(join(tmpdir(), 'lme-preflight-cache-')),
      out: mkdtempSync(join(tmpdir(), 'lme-preflight-')),
    });
    await expect(
      preflightRun({ sections: groupConfig(config), datasetPath: SAMPLE, environment: ENVIRONMENT }),
    ).rejects.toThrow(
      `${join(modelDir, 'onnx', 'model_quantized.onnx')} (--model-dir) has 17 bytes, but configs/models.json pins`,
    );
  });
});

// Issue 36: a read-only --cache-dir failed every question with "ENOENT mkdir" when the model
// was still to be fetched.
describe('the model store folder', () => {
  it('is checked by preflight when the hf: model is to be fetched: a read-only one stops the run, naming it', async (context) => {
    const readOnly = mountTmpfs('ro,size=4k');
    if ('skip' in readOnly) return context.skip(readOnly.skip);
    try {
      const config = parseRunConfig({
        retriever: 'dense',
        embedder: 'hf:Xenova/bge-small-en-v1.5',
        cacheDir: readOnly.dir,
        cache: false,
        out: mkdtempSync(join(tmpdir(), 'lme-preflight-')),
      });
      await expect(
        preflightRun({
          sections: groupConfig(config),
          datasetPath: SAMPLE,
          environment: ENVIRONMENT,
        }),
      ).rejects.toThrow(
        `The model store folder ${join(readOnly.dir, 'models')} cannot be written (EROFS): make it writable, point --cache-dir at another folder, or pass --model-dir with the model's files.`,
      );
    } finally {
      unmountTmpfs(readOnly.dir);
    }
  });
});

describe('the embedding cache folder', () => {
  it("is probed where each embedder's vectors go, not under a joined name no vector is written to", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'lme-preflight-cache-'));
    const config = parseRunConfig({
      retriever: 'dense',
      embedder: 'local:use-lite+local:use-lite',
      cacheDir,
      out: mkdtempSync(join(tmpdir(), 'lme-preflight-')),
    });
    await preflightRun({
      sections: groupConfig(config),
      datasetPath: SAMPLE,
      environment: ENVIRONMENT,
    });
    expect(readdirSync(join(cacheDir, 'embeddings'))).toEqual([
      expect.stringMatching(/^local_use-lite-[0-9a-f]{12}$/),
    ]);
  });
});
