import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * For reference tests: a checkout of xjtuleeyf/Locomo-Plus (commit
 * 143cdeb649231612abc3304793bb36a122f94229, with data/ and evaluation_framework/output/) named by
 * LME_LOCOMO_PLUS_DIR, and its official Python code run on it to say what it computes. Nothing of
 * it is committed here; without it the reference tests skip, saying why.
 */

/** The checkout, or why the reference tests cannot run. */
export function officialLocomoPlus(): { dir: string } | { skip: string } {
  const dir = process.env.LME_LOCOMO_PLUS_DIR;
  if (!dir)
    return { skip: 'LME_LOCOMO_PLUS_DIR is not set (a checkout of xjtuleeyf/Locomo-Plus at 143cdeb)' };
  for (const file of ['data/locomo_plus.json', 'data/locomo10.json', 'data/build_conv.py']) {
    if (!existsSync(join(dir, file))) return { skip: `${join(dir, file)} is missing` };
  }
  if (spawnSync('python3', ['--version']).status !== 0) return { skip: 'python3 is not available' };
  return { dir };
}

/**
 * Runs `body` (Python) with the official modules importable (`build_conv`, `unified_input`,
 * `task_eval.utils`, `task_eval.prompt`, `task_eval.llm_as_judge`) and `ROOT` the checkout; returns
 * what it prints as JSON.
 */
export function runOfficialPython(dir: string, body: string): unknown {
  const script = join(mkdtempSync(join(tmpdir(), 'lme-locomo-plus-')), 'reference.py');
  writeFileSync(
    script,
    [
      'import json, sys',
      `ROOT = ${JSON.stringify(dir)}`,
      'sys.path.insert(0, ROOT + "/data")',
      'sys.path.insert(0, ROOT + "/evaluation_framework")',
      body,
    ].join('\n'),
  );
  return JSON.parse(execFileSync('python3', [script], { encoding: 'utf8', maxBuffer: 512 * 2 ** 20 }));
}
