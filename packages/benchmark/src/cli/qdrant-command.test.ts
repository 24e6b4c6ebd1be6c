import { createQdrantVectorIndex } from '@lme/search-core';
import { type FakeQdrant, startFakeQdrant } from '@lme/search-core/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { qdrantCommand } from './qdrant-command.js';

/** Runs `lme qdrant …` in this process; a thrown error is returned as `error`. */
async function lmeQdrant(args: string[]) {
  const output = { stdout: '', stderr: '' };
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    output.stdout += String(chunk);
    return true;
  });
  try {
    await qdrantCommand().exitOverride().parseAsync(args, { from: 'user' });
    return { ...output, error: undefined };
  } catch (error) {
    return { ...output, error: error as Error };
  } finally {
    spy.mockRestore();
  }
}

let fake: FakeQdrant | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await fake?.close();
  fake = undefined;
});

/** A collection with `points` points, as a run that crashed before dropping it leaves behind. */
async function leftBehind(url: string, collection: string, points: number) {
  const index = createQdrantVectorIndex({ url, collection, dimensions: 2, filterKeys: ['namespace'] });
  await index.upsert({
    records: Array.from({ length: points }, (_, n) => ({
      id: `q1:${n}`,
      vector: Float32Array.from([1, n]),
      payload: { namespace: 'q1' },
    })),
  });
}

describe('lme qdrant collections', () => {
  it("lists the collections crashed runs left behind, and removes them (named ones first), never another's", async () => {
    fake = await startFakeQdrant();
    vi.stubEnv('QDRANT_URL', fake.url);
    await leftBehind(fake.url, 'lme-20261125090000-0a1b2c3d4e5f', 3);
    await leftBehind(fake.url, 'lme-20261125100000-ffeeddccbbaa', 1);
    await leftBehind(fake.url, 'someone-elses', 2);

    const listed = await lmeQdrant(['collections']);
    expect(listed.error).toBeUndefined();
    expect(listed.stdout).toMatch(
      /\| *lme-20261125090000-0a1b2c3d4e5f *\| *2026-11-25 09:00:00 UTC *\| *3 *\|/,
    );
    expect(listed.stdout).toMatch(
      /\| *lme-20261125100000-ffeeddccbbaa *\| *2026-11-25 10:00:00 UTC *\| *1 *\|/,
    );
    expect(listed.stdout).not.toContain('someone-elses');
    expect(listed.stdout).toContain('2 collections; remove them with `lme qdrant collections --remove`');

    const foreign = await lmeQdrant(['collections', '--remove', 'someone-elses']);
    expect(foreign.error?.message).toBe(
      'lme qdrant collections --remove: "someone-elses" is not one of lme\'s collections on this server (run `lme qdrant collections` to list them).',
    );
    const one = await lmeQdrant(['collections', '--remove', 'lme-20261125090000-0a1b2c3d4e5f']);
    expect(one.stdout).toBe('removed lme-20261125090000-0a1b2c3d4e5f\n');
    const rest = await lmeQdrant(['collections', '--remove']);
    expect(rest.stdout).toBe('removed lme-20261125100000-ffeeddccbbaa\n');
    expect([...fake.collections.keys()]).toEqual(['someone-elses']);
    expect((await lmeQdrant(['collections'])).stdout).toBe('no lme collections on this server\n');
  });

  it('needs QDRANT_URL, and names a dead server by its cause', async () => {
    vi.stubEnv('QDRANT_URL', '');
    expect((await lmeQdrant(['collections'])).error?.message).toMatch(/needs QDRANT_URL/);
    fake = await startFakeQdrant();
    const url = fake.url;
    await fake.close();
    fake = undefined;
    vi.stubEnv('QDRANT_URL', url);
    expect((await lmeQdrant(['collections'])).error?.message).toMatch(
      new RegExp(`^Qdrant version check at ${url.replace(/[.:/]/g, '\\$&')} failed: .*ECONNREFUSED`),
    );
  });
});
