import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { groupConfig, parseRunConfig } from '../../config/run-sections.js';
import { PROVIDERS } from '../../providers/provider-registry.js';
import { REPO_ROOT } from '../../testing/run-cli.js';
import { preflightRun } from './preflight.js';

const SAMPLE = resolve(REPO_ROOT, 'datasets', 'sample', 'longmemeval_s_sample.json.gz');
const sessionsOnly = Object.values(PROVIDERS).filter((descriptor) => descriptor.capabilities.sessionsOnly);

describe('a provider that ranks whole sessions only, at --granularity turn', () => {
  it('includes MemPalace, which keeps no turns', () => {
    expect(sessionsOnly.map((descriptor) => descriptor.name)).toContain('mempalace');
  });

  it.each(sessionsOnly.map((descriptor) => [descriptor.name, descriptor.capabilities.sessionsOnly]))(
    '--provider %s is refused by preflight, before any ingest, in one sentence from its descriptor',
    async (name, reason) => {
      const config = parseRunConfig({
        provider: name,
        granularity: 'turn',
        out: mkdtempSync(join(tmpdir(), 'lme-granularity-')),
      });
      await expect(
        preflightRun({ sections: groupConfig(config), datasetPath: SAMPLE, environment: {} }),
      ).rejects.toThrow(
        `--provider ${name} ranks whole sessions only (${reason}), so --granularity turn cannot be graded; run it with --granularity session.`,
      );
    },
  );

  it('is not refused at --granularity session', async () => {
    const config = parseRunConfig({
      provider: 'mempalace',
      granularity: 'session',
      out: mkdtempSync(join(tmpdir(), 'lme-granularity-')),
    });
    await expect(
      preflightRun({ sections: groupConfig(config), datasetPath: SAMPLE, environment: {} }),
    ).resolves.toBeUndefined();
  });
});
