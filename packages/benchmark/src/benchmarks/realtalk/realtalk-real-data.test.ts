import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCli } from '../../testing/run-cli-async.js';
import { loadAnyDataset } from '../load-dataset.js';
import {
  REALTALK_COMMIT,
  REALTALK_FILES,
  REALTALK_QUESTIONS,
  REALTALK_REPOSITORY,
} from './realtalk-files.js';

/** The ten published chats, when a developer put them here (`lme datasets download realtalk`, or LME_REALTALK_DIR). */
const FOLDER = process.env.LME_REALTALK_DIR ?? '';
const present =
  FOLDER !== '' && REALTALK_FILES.every((file) => existsSync(join(FOLDER, basename(file.path))));

describe.skipIf(!present)(
  `the published REALTALK chats in ${FOLDER || 'LME_REALTALK_DIR'}${present ? '' : ' (skipped: set LME_REALTALK_DIR to a folder of the ten chats)'}`,
  () => {
    it('are the pinned files, byte for byte', () => {
      for (const file of REALTALK_FILES) {
        const bytes = readFileSync(join(FOLDER, basename(file.path)));
        expect([bytes.length, createHash('sha256').update(bytes).digest('hex')]).toEqual([
          file.bytes,
          file.sha256,
        ]);
      }
    });

    it('load whole: 728 questions in three categories, every one with a question and an answer', async () => {
      const loaded = await loadAnyDataset(FOLDER);
      expect(loaded.format).toBe('realtalk');
      expect(loaded.records).toHaveLength(REALTALK_QUESTIONS);
      const types: Record<string, number> = {};
      for (const record of loaded.records)
        types[record.question_type] = (types[record.question_type] ?? 0) + 1;
      expect(types).toEqual({ 'realtalk-1-fact': 301, 'realtalk-2-date': 319, 'realtalk-3-inference': 108 });
      expect(loaded.records.filter((record) => record.answer_session_ids.length > 0)).toHaveLength(706);
      expect(loaded.warnings).toHaveLength(188);
    });

    it('download through `lme datasets download realtalk` from a loopback raw-GitHub stand-in, every file checked', async () => {
      const prefix = `/${REALTALK_REPOSITORY}/${REALTALK_COMMIT}/data/`;
      const server = createServer((request, response) => {
        const name = (request.url ?? '').startsWith(prefix)
          ? basename(request.url!.slice(prefix.length))
          : '';
        const path = join(FOLDER, name);
        if (!name || !existsSync(path)) return void response.writeHead(404).end('not found');
        response.writeHead(200).end(readFileSync(path));
      });
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
      try {
        const dataDir = mkdtempSync(join(tmpdir(), 'lme-realtalk-cli-'));
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const result = await startCli([
          'datasets',
          'download',
          'realtalk',
          '--data-dir',
          dataDir,
          '--github-raw-url',
          url,
        ]).done;
        expect(result.status, result.stderr).toBe(0);
        expect(result.stdout).toContain(
          `realtalk: 10 files (10 downloaded, 0 already present), size and SHA-256 verified: ${join(dataDir, 'realtalk')}`,
        );
        const list = await startCli(['datasets', 'list', '--no-verify', '--data-dir', dataDir]).done;
        expect(list.stdout).toMatch(/realtalk +present/);
      } finally {
        await new Promise((done) => server.close(done));
      }
    }, 120_000);
  },
);
