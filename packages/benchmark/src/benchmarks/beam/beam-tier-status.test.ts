import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveDatasetPath } from '../dataset-path.js';
import { BEAM_FILES } from './beam-files.js';

// Issue 52, item 4: an empty BEAM folder left by a failed download was "a folder, not a dataset file".
describe('--dataset beam-100k', () => {
  it('names what is missing and the next step when the tier folder is empty or incomplete', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'lme-beam-tier-'));
    const folder = join(dataDir, 'beam', 'chats', '100K');
    mkdirSync(join(folder, '1'), { recursive: true });
    expect(() => resolveDatasetPath('beam-100k', dataDir)).toThrow(
      `Dataset beam-100k is not in ${folder} (none of its 40 files); run \`lme datasets download beam-100k\` (40 files, 13.9 MB; it fetches only what is missing), or copy chats/100K of mohammadtavakoli78/BEAM at commit b2a3ee8 into ${folder} by hand, or set --data-dir or LME_DATA_DIR to the folder that holds beam/chats/100K.`,
    );
    // One file there at its pinned size, one cut short.
    const [first, second] = BEAM_FILES['100K']!;
    writeFileSync(join(dataDir, 'beam', first!.path), Buffer.alloc(first!.bytes, ' '));
    mkdirSync(join(dataDir, 'beam', second!.path, '..'), { recursive: true });
    writeFileSync(join(dataDir, 'beam', second!.path), '{}');
    expect(() => resolveDatasetPath('beam-100k', dataDir)).toThrow(
      `Dataset beam-100k is incomplete in ${folder}: 39 of its 40 files are missing or cut short (first: ${second!.path}); run \`lme datasets download beam-100k\``,
    );
  });
});
