import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SampleRecord, sampleRecords } from '@lme/search-core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli } from '../../testing/run-cli-async.js';
import type { ExternalMemoryDescriptor } from '../external/external-memory-descriptor.js';
import type { ProtocolSession } from '../http/protocol.js';
import { mem0Descriptor } from '../mem0/descriptor.js';
import { mempalaceDescriptor } from '../mempalace/descriptor.js';
import { parseProviderOptions } from '../provider-registry.js';
import { type BridgeName, bridgesDir } from './bridge-catalog.js';
import { bridgeIsolation } from './bridge-isolation.js';
import { BRIDGE_EMBEDDINGS_FOLDER, type BridgeMemory } from './bridge-memory.js';
import { readInstalledBridge } from './install-bridge.js';

// The real bridges (mem0 and MemPalace in their virtual environments, `lme bridges install`),
// started through their descriptors on real sample haystacks. Skipped, saying why, where a bridge
// is not installed (.ci/run installs both).

/**
 * A real sample record cut to its evidence sessions and the first `others` other sessions, in
 * haystack order: a haystack a loaded 2-core machine ingests in seconds, with real distractors.
 */
function trimmed(record: SampleRecord, others: number): SampleRecord {
  let kept = 0;
  const keep = record.haystack_session_ids.map((id) => {
    if (record.answer_session_ids.includes(id)) return true;
    kept += 1;
    return kept <= others;
  });
  const pick = <T>(list: readonly T[]) => list.filter((_, index) => keep[index]);
  return {
    ...record,
    haystack_session_ids: pick(record.haystack_session_ids),
    haystack_dates: pick(record.haystack_dates),
    haystack_sessions: pick(record.haystack_sessions),
  };
}

/** A sample record's haystack as the protocol sends it, every role. */
function sessionsOf(record: SampleRecord): ProtocolSession[] {
  return record.haystack_sessions.map((turns, index) => ({
    session_id: record.haystack_session_ids[index]!,
    date: record.haystack_dates[index]!,
    turns: turns.map((turn, turnIndex) => ({
      role: turn.role,
      content: turn.content,
      turn_index: turnIndex,
    })),
  }));
}

/** Each cached vector file under `folder` with its inode. */
function vectorFiles(folder: string): Map<string, number> {
  const files = new Map<string, number>();
  for (const entry of readdirSync(folder, { recursive: true, encoding: 'utf8' }))
    if (entry.endsWith('.f32')) files.set(entry, statSync(join(folder, entry)).ino);
  return files;
}

/**
 * `record` with one more session: the turns of its first evidence session that hold the answer,
 * alone. Their texts are cached (embedded with the whole session) before the copy asks for them
 * without their batch-mates, and they rank high: an embedder whose vectors depended on their
 * batch-mates scored them differently with the cache than without.
 */
function withEvidenceAlone(record: SampleRecord): SampleRecord {
  const index = record.haystack_session_ids.indexOf(record.answer_session_ids[0]!);
  const session = record.haystack_sessions[index]!;
  const evidence = session.filter((turn) => turn.has_answer);
  return {
    ...record,
    question_id: `${record.question_id}-evidence-alone`,
    haystack_session_ids: [...record.haystack_session_ids, `alone-${record.answer_session_ids[0]}`],
    haystack_dates: [...record.haystack_dates, record.haystack_dates[index]!],
    haystack_sessions: [...record.haystack_sessions, evidence.length > 0 ? evidence : session.slice(0, 1)],
  };
}

async function health(memory: BridgeMemory): Promise<{ name: string; refused_connections: string[] }> {
  const { url } = await memory.process();
  return (await (await fetch(`${url}/v1/health`)).json()) as { name: string; refused_connections: string[] };
}

/**
 * The bridges' environment here: MemPalace's ONNX session on one thread (MEMPALACE_EMBEDDING_THREADS,
 * read by mempalace; unset, onnxruntime takes every core), as the mem0 bridge's embedder runs. The
 * suite's two workers keep both cores busy, and a two-thread session waiting on a busy core at every
 * operator took 2-3 times the wall time for the same CPU (8.7 s of CPU for 7 sessions: 75 s of wall
 * on two threads, 34 s on one, on a loaded 2-core machine).
 */
const BRIDGE_ENVIRONMENT: NodeJS.ProcessEnv = { MEMPALACE_EMBEDDING_THREADS: '1' };

const DESCRIPTORS: [BridgeName, ExternalMemoryDescriptor<Record<string, never>>][] = [
  ['mem0', mem0Descriptor as unknown as ExternalMemoryDescriptor<Record<string, never>>],
  ['mempalace', mempalaceDescriptor as unknown as ExternalMemoryDescriptor<Record<string, never>>],
];

for (const [name, descriptor] of DESCRIPTORS) {
  const missing = await readInstalledBridge(bridgesDir(), name).then(
    () => undefined,
    (error: Error) => error.message,
  );
  describe.skipIf(missing !== undefined)(
    missing ? `${name} bridge (skipped: ${missing})` : `${name} bridge`,
    () => {
      let workDir: string;
      let memory: BridgeMemory;
      // Evidence and three other sessions: each bridge ranked the evidence session first on both
      // (and on the third record), where six others had cost MemPalace twice the embedding time.
      const [first, second] = [trimmed(sampleRecords()[0]!, 3), trimmed(sampleRecords()[1]!, 3)];

      beforeAll(async () => {
        workDir = await mkdtemp(join(tmpdir(), `lme-bridge-${name}-`));
        memory = descriptor.createMemory(parseProviderOptions(descriptor, {}), {
          environment: { ...process.env, ...BRIDGE_ENVIRONMENT },
          timeoutMs: 300_000,
          maxRetries: 0,
          workDir,
        }) as BridgeMemory;
        await memory.preflight();
      }, 300_000);

      afterAll(async () => {
        await memory?.close?.();
        await rm(workDir, { recursive: true, force: true });
      });

      it('reports its name and version, then ranks only the sessions of its own namespace', async () => {
        expect(memory.identity()).toMatchObject({ kind: name, name });
        expect(memory.identity().version).toMatch(/^\d+\.\d+\.\d+$/);
        expect(memory.identity().isolation).toBe(bridgeIsolation().description);
        await memory.reset('run/a');
        await memory.reset('run/b');
        await memory.ingest('run/a', sessionsOf(first));
        await memory.ingest('run/b', sessionsOf(second));
        for (const [namespace, record] of [
          ['run/a', first],
          ['run/b', second],
        ] as const) {
          const reply = await memory.search({
            namespace,
            query: record.question,
            topK: 10,
            granularity: 'session',
          });
          expect(reply.hits.length, namespace).toBeGreaterThan(0);
          expect(reply.hits.length).toBeLessThanOrEqual(10);
          const ids = reply.hits.map((hit) => hit.session_id);
          for (const id of ids) expect(record.haystack_session_ids).toContain(id);
          expect(new Set(ids).size).toBe(ids.length);
          // A real ranking: an evidence session is among the first two of four or more.
          expect(record.haystack_session_ids.length).toBeGreaterThanOrEqual(4);
          expect(
            ids.slice(0, 2).some((id) => record.answer_session_ids.includes(id)),
            `${namespace}: ${ids.join(' ')}`,
          ).toBe(true);
        }
        await memory.reset('run/a');
        const emptied = await memory.search({
          namespace: 'run/a',
          query: first.question,
          topK: 10,
          granularity: 'session',
        });
        expect(emptied.hits).toEqual([]);
        const kept = await memory.search({
          namespace: 'run/b',
          query: second.question,
          topK: 10,
          granularity: 'session',
        });
        expect(kept.hits.length).toBeGreaterThan(0);
        expect((await health(memory)).refused_connections).toEqual([]);
      }, 600_000);

      it('runs two `lme run --provider <name>` at once on one cache, each with its own store, end to end', async () => {
        const dataset = join(workDir, 'sample-trimmed.json');
        await writeFile(
          dataset,
          JSON.stringify(
            sampleRecords()
              .slice(0, 3)
              // Evidence and one other session each: what this test checks (lme starts, feeds
              // and stops the bridge; every role indexed; runs do not share a store) does not
              // depend on the haystack's size.
              .map((record) => trimmed(record, 1)),
          ),
        );
        const out = join(workDir, 'runs');
        const cache = join(workDir, 'cache');
        // Two runs at once (two shards on one machine): the first to finish used to delete the
        // other's store, and a question of the other failed.
        const runs = ['one', 'two'].map((id) =>
          startCli(
            [
              'run',
              '--dataset',
              dataset,
              '--provider',
              name,
              '--cache-dir',
              cache,
              '--out',
              out,
              '--run-id',
              id,
            ],
            BRIDGE_ENVIRONMENT,
          ),
        );
        for (const [index, result] of (await Promise.all(runs.map((run) => run.done))).entries()) {
          const id = index === 0 ? 'one' : 'two';
          expect(result.status, result.stderr).toBe(0);
          const summary = JSON.parse(await readFile(join(out, id, 'summary.json'), 'utf8')) as Record<
            string,
            unknown
          >;
          expect(summary).toMatchObject({ n: 3, errors: 0 });
          expect(JSON.stringify(summary)).toContain(`"name":"${name}"`);
          const config = JSON.parse(await readFile(join(out, id, 'config.json'), 'utf8')) as {
            config: { indexRoles: string };
            provider: { isolation?: string };
          };
          expect(config.config.indexRoles).toBe('all');
          expect(config.provider.isolation).toBe(bridgeIsolation().description);
        }
        // Each run's bridge and its store are gone once the run ends; the shared vectors stay.
        expect(readdirSync(join(cache, 'providers', name))).toEqual([BRIDGE_EMBEDDINGS_FOLDER]);
      }, 900_000);

      it('ranks the same with its embedding cache off, cold and warm, and a warm run embeds nothing again', async () => {
        const dataset = join(workDir, 'sample-cache.json');
        const records = sampleRecords()
          .slice(0, 3)
          .map((record) => trimmed(record, 2));
        await writeFile(dataset, JSON.stringify([...records, withEvidenceAlone(records[0]!)]));
        const out = join(workDir, 'cache-runs');
        const run = async (id: string, cache: string, environment: NodeJS.ProcessEnv = {}) => {
          const args = ['run', '--dataset', dataset, '--provider', name, '--cache-dir', cache];
          const result = await startCli([...args, '--out', out, '--run-id', id], {
            ...BRIDGE_ENVIRONMENT,
            ...environment,
          }).done;
          expect(result.status, result.stderr).toBe(0);
          const config = JSON.parse(await readFile(join(out, id, 'config.json'), 'utf8')) as {
            fingerprint: { rankings: string };
          };
          // The scores too: a vector that moved a little need not move a rank.
          const samples = (await readFile(join(out, id, 'samples.jsonl'), 'utf8'))
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line) as { question_id: string; hits: { id: string; score: number }[] })
            .map((sample) => [sample.question_id, sample.hits.map((hit) => [hit.id, hit.score])])
            .sort();
          return { rankings: config.fingerprint.rankings, samples };
        };
        const shared = join(workDir, 'shared-cache');
        const vectors = join(shared, 'providers', name, BRIDGE_EMBEDDINGS_FOLDER);
        const off = await run('off', join(workDir, 'no-cache'), { LME_BRIDGE_EMBEDDING_CACHE: '0' });
        expect(existsSync(join(workDir, 'no-cache', 'providers', name, BRIDGE_EMBEDDINGS_FOLDER))).toBe(
          false,
        );
        const cold = await run('cold', shared);
        const written = vectorFiles(vectors);
        expect(written.size).toBeGreaterThan(20);
        const warm = await run('warm', shared);
        expect([cold, warm]).toEqual([off, off]);
        // Every vector the warm run needed was read, none written again (a rename makes a new inode).
        expect(vectorFiles(vectors)).toEqual(written);
      }, 900_000);

      it('ranks a namespace the same whatever else its process holds, exact ties included', async () => {
        // Eight sessions saying the same thing: their scores tie exactly. mem0's one Qdrant
        // collection sorted every namespace's memories together with an unstable sort, so the ties
        // came back in an order that depended on the other namespaces in the process (at -j 2, on
        // which questions it had been dealt): the same run's rankings hash changed from run to run.
        const said = (id: string, text: string): ProtocolSession => ({
          session_id: id,
          date: '2023/05/20 (Sat) 02:21',
          turns: [
            { role: 'user', content: text, turn_index: 0 },
            { role: 'assistant', content: 'That sounds lovely, tell me more.', turn_index: 1 },
          ],
        });
        const ties = Array.from({ length: 8 }, (_, index) =>
          said(`tie-${index + 1}`, 'I adopted a grey cat named Miso from the shelter last spring.'),
        );
        // Three hundred other memories: numpy sorts a few dozen equal scores stably, not hundreds.
        const others: ProtocolSession[] = [
          {
            session_id: 'others',
            date: '2023/05/21 (Sun) 10:00',
            turns: Array.from({ length: 300 }, (_, index) => ({
              role: index % 2 === 0 ? 'user' : 'assistant',
              content: `My cousin number ${index + 1} moved to a new city for work in ${1800 + index}.`,
              turn_index: index,
            })),
          },
        ];
        const query = {
          query: 'What is the name of the cat I adopted?',
          topK: 8,
          granularity: 'session' as const,
        };
        const ranked = async (namespace: string) => {
          await memory.reset(namespace);
          await memory.ingest(namespace, ties);
          return (await memory.search({ ...query, namespace })).hits.map((hit) => hit.session_id);
        };
        const alone = await ranked('ties/question');
        await memory.reset('ties/question');
        await memory.reset('ties/others');
        await memory.ingest('ties/others', others);
        const afterOthers = await ranked('ties/question');
        expect(alone.length).toBeGreaterThan(1);
        expect(afterOthers).toEqual(alone);
        await memory.reset('ties/others');
        await memory.reset('ties/question');
      }, 600_000);

      it('stops the bridge and removes its store on close', async () => {
        const { url } = await memory.process();
        await memory.close?.();
        await expect(fetch(`${url}/v1/health`)).rejects.toThrow();
        expect(readdirSync(workDir).filter((entry) => entry.startsWith(`${name}-`))).toEqual([]);
      });
    },
  );
}
