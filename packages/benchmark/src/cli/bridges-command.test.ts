import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bridgeIsolation } from '../providers/bridges/bridge-isolation.js';
import { runCli } from '../testing/run-cli.js';

describe('lme bridges list', () => {
  it('says what holds each bridge off the network on this machine', () => {
    const root = mkdtempSync(join(tmpdir(), 'lme-bridges-list-'));
    const result = runCli(['bridges', 'list'], { LME_BRIDGES_DIR: root });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain(`folder: ${root}\n`);
    expect(result.stdout).toContain(`network: each bridge runs with ${bridgeIsolation().description}\n`);
    const off = runCli(['bridges', 'list'], { LME_BRIDGES_DIR: root, LME_BRIDGE_NETNS: '0' });
    expect(off.stdout).toContain(
      'network: each bridge runs with the Python socket guard only (LME_BRIDGE_NETNS=0 turned the network namespace off)',
    );
  }, 60_000);
});
