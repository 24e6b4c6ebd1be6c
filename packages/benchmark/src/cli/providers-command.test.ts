import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROVIDERS } from '../providers/provider-registry.js';
import { REPO_ROOT, runCli } from '../testing/run-cli.js';

describe('lme providers', () => {
  it('lists every provider of the registry with its options, and one provider by name', {
    timeout: 120_000,
  }, () => {
    const all = runCli(['providers']);
    expect(all.status).toBe(0);
    for (const descriptor of Object.values(PROVIDERS)) {
      expect(all.stdout).toContain(`  ${descriptor.name}: ${descriptor.description}`);
      for (const [key, option] of Object.entries(descriptor.options))
        expect(all.stdout).toContain(`      ${key}=…  ${option.help}`);
    }
    const one = runCli(['providers', 'mem0']);
    expect(one.status).toBe(0);
    expect(one.stdout).toContain('threshold=…');
    expect(one.stdout).not.toContain('  http:');
    const typo = runCli(['providers', 'mem']);
    expect(typo.status).toBe(1);
    expect(typo.stderr).toMatch(/^lme: Unknown provider "mem" \(--provider\); did you mean "mem0"\?;/);
  });

  it("lists a plugin's memory system and its options with --plugin", { timeout: 120_000 }, () => {
    const plugin = join(REPO_ROOT, 'examples/word-overlap-plugin.mjs');
    const listed = runCli(['providers', '--plugin', plugin, 'overlap-memory']);
    expect(listed.stderr).toBe('');
    expect(listed.stdout).toContain('      min-shared=…  fewest shared words a hit needs (default: 1)');
  });
});
