import { describe, expect, it } from 'vitest';
import { groupConfig } from '../config/run-sections.js';
import { sampleConfig } from '../testing/sample-run.js';
import { serve } from './serve.js';

const SESSION = {
  session_id: 's1',
  date: '2023/05/30 (Tue) 23:40',
  turns: [{ role: 'user', content: 'I adopted a cat.', turn_index: 0 }],
};

async function post(url: string, path: string, body: string | Uint8Array) {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  return { status: response.status, body: (await response.json()) as { error?: { message: string } } };
}

describe('lme serve checks what it is sent as the loaders check their files', () => {
  it('refuses a body that is not UTF-8 with 400 naming the byte, never decoding it to U+FFFD', async () => {
    const server = await serve({ sections: groupConfig(sampleConfig({}, 'lme-serve-input-')), port: 0 });
    try {
      const text = Buffer.from(JSON.stringify({ namespace: 'n', sessions: [SESSION] }));
      text[text.indexOf('cat')] = 0xe9;
      expect(await post(server.url, '/v1/ingest', text)).toEqual({
        status: 400,
        body: {
          error: {
            message: `request body is not UTF-8 (byte ${text.indexOf(0xe9)} (0xe9)); send JSON as UTF-8 text.`,
          },
        },
      });
    } finally {
      await server.close();
    }
  });

  it('refuses a date that is not a date (yesterday), naming the field', async () => {
    const server = await serve({ sections: groupConfig(sampleConfig({}, 'lme-serve-input-')), port: 0 });
    try {
      const yesterday = await post(
        server.url,
        '/v1/ingest',
        JSON.stringify({ namespace: 'n', sessions: [{ ...SESSION, date: 'yesterday' }] }),
      );
      expect(yesterday.status).toBe(400);
      expect(yesterday.body.error?.message).toMatch(
        /sessions\.0\.date.*not a date like "2023\/05\/30 \(Tue\) 23:40"/,
      );
      // A session of no turns is taken (lme sends one whose turns are all of roles not indexed).
      const empty = await post(
        server.url,
        '/v1/ingest',
        JSON.stringify({ namespace: 'n', sessions: [{ ...SESSION, turns: [] }] }),
      );
      expect(empty.status).toBe(200);
      const query = await post(
        server.url,
        '/v1/search',
        JSON.stringify({ namespace: 'n', query: 'cat', query_date: 'yesterday', top_k: 1 }),
      );
      expect(query.status).toBe(400);
      expect(query.body.error?.message).toMatch(/query_date/);
      expect(
        (await post(server.url, '/v1/ingest', JSON.stringify({ namespace: 'n', sessions: [SESSION] })))
          .status,
      ).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('refuses a body nested past the loaders’ bound with 400 naming where', async () => {
    const server = await serve({ sections: groupConfig(sampleConfig({}, 'lme-serve-input-')), port: 0 });
    try {
      const deep = `{"namespace": "n", "sessions": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
      const reply = await post(server.url, '/v1/ingest', deep);
      expect(reply.status).toBe(400);
      expect(reply.body.error?.message).toMatch(/^request body: the value at sessions\[0\]\[0\]/);
    } finally {
      await server.close();
    }
  });

  it('reports the process’s measured memory beside the estimate --max-memory-mb bounds', async () => {
    const server = await serve({ sections: groupConfig(sampleConfig({}, 'lme-serve-input-')), port: 0 });
    try {
      const health = (await (await fetch(`${server.url}/v1/health`)).json()) as Record<string, number>;
      expect(health.rss_mb).toBeGreaterThan(health.memory_mb!);
      expect(health.rss_mb).toBeGreaterThan(10);
    } finally {
      await server.close();
    }
  });
});
