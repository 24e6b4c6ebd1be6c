import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errataFileSchema } from './errata-schema.js';
import { ERRATA_DIR, listErrata, loadErrata } from './load-errata.js';

describe('the committed errata files', () => {
  it('all parse under the schema, each entry with a source and how it was verified', () => {
    const names = listErrata();
    expect(names).toEqual(['locomo', 'locomo10-conv26', 'longmemeval-oracle', 'longmemeval-s']);
    for (const name of names) {
      const errata = loadErrata(name);
      expect(errata.name).toBe(name);
      expect(errata.entries.length).toBeGreaterThan(0);
      for (const entry of errata.entries) {
        expect(entry.source.length).toBeGreaterThan(10);
        expect(entry.verified.length).toBeGreaterThan(20);
      }
    }
  });

  it('count the entries per kind the closing note reports', () => {
    const kinds = (name: string) => {
      const counts: Record<string, number> = {};
      for (const entry of loadErrata(name).entries) counts[entry.kind] = (counts[entry.kind] ?? 0) + 1;
      return counts;
    };
    expect(kinds('longmemeval-s')).toEqual({ duplicate: 13, evidence: 1, 'gold-answer': 3 });
    expect(kinds('longmemeval-oracle')).toEqual({ evidence: 1, 'gold-answer': 3 });
    expect(kinds('locomo10-conv26')).toEqual({ 'gold-answer': 4, category: 3, evidence: 13 });
    expect(kinds('locomo')).toEqual({ 'gold-answer': 89, category: 3, evidence: 97 });
  });

  // Issue 52, item 6: LoCoMo errata stopped at conv-26.
  it('correct all ten LoCoMo conversations, each audit entry citing the audit file and entry of its question', () => {
    const errata = loadErrata('locomo');
    const conversations = [
      'conv-26',
      'conv-30',
      'conv-41',
      'conv-42',
      'conv-43',
      'conv-44',
      'conv-47',
      'conv-48',
      'conv-49',
      'conv-50',
    ];
    const ids = (entries: readonly { question_id: string }[]) =>
      new Set(entries.map((entry) => entry.question_id.replace(/_q\d+(_abs)?$/, '')));
    expect([...ids(errata.entries)].sort()).toEqual(conversations);
    const conv26 = loadErrata('locomo10-conv26');
    // lme's own review of conv-26 is kept whole, and wins where the audit differs.
    const strip = ({ source: _source, ...entry }: (typeof conv26.entries)[number]) => entry;
    expect(errata.entries.slice(0, conv26.entries.length).map(strip)).toEqual(conv26.entries.map(strip));
    for (const entry of errata.entries.slice(0, conv26.entries.length)) {
      expect(entry.source).toMatch(
        /; the locomo-audit \(.*\) (lists it too, as entry locomo_0_qa\d+ |does not list it$)/,
      );
    }
    const fromAudit = errata.entries.slice(conv26.entries.length);
    expect(new Set(errata.entries.map((entry) => entry.question_id)).size).toBeGreaterThanOrEqual(150);
    for (const entry of fromAudit) {
      const match = /audit\/errors_conv_(\d)\.json, entry locomo_(\d)_qa(\d+) /.exec(entry.source);
      expect(match, entry.question_id).not.toBeNull();
      const [, file, conversation, position] = match!;
      expect(file).toBe(conversation);
      expect(entry.source).toContain('dial481/locomo-audit at commit 9493fb4 (CC BY-NC 4.0)');
      expect(entry.question_id).toMatch(
        new RegExp(`^${conversations[Number(conversation)]}_q${Number(position) + 1}(_abs)?$`),
      );
      expect(entry.verified).toContain('Checked by scripts/locomo-audit-errata.mjs against locomo10.json');
    }
    expect(errata.files.map((file) => file.sha256)).toEqual([
      '79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4',
    ]);
  });

  it('refuse an entry whose kind does not go with its field, naming the entry', () => {
    const errata = loadErrata('longmemeval-s');
    const broken = {
      ...errata,
      entries: [{ ...errata.entries.at(-1)!, kind: 'duplicate' }],
    };
    const { path: _path, file_sha256: _sha, ...content } = broken;
    const parsed = errataFileSchema.safeParse(content);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path.slice(0, 2)).toEqual(['entries', 0]);
  });

  it('name the known errata when asked for an unknown one', () => {
    expect(() => loadErrata('nope')).toThrow(
      `Unknown errata "nope" (--errata); known: locomo, locomo10-conv26, longmemeval-oracle, longmemeval-s.`,
    );
    expect(ERRATA_DIR.endsWith('configs/errata')).toBe(true);
  });

  // Issue 36, item 7: an errata file had no size cap.
  it('refuse a file over 1 MB before reading it, and one that is not a regular file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lme-errata-cap-'));
    const big = join(dir, 'big.json');
    writeFileSync(big, `{"name": "${'x'.repeat(1024 * 1024)}"}`);
    expect(() => loadErrata(big)).toThrow(`--errata ${big} holds more than 1 MB`);
    expect(() => loadErrata(dir.concat('/'))).toThrow(/Unknown errata|is a folder/);
  });
});
