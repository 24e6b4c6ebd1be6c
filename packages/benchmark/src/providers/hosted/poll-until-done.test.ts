import { describe, expect, it } from 'vitest';
import { pollUntilDone } from './poll-until-done.js';

describe('pollUntilDone', () => {
  it("fails at once with the service's reason when the job failed", async () => {
    const waits: number[] = [];
    await expect(
      pollUntilDone({
        what: 'Job 1',
        intervalMs: 100,
        maxWaitMs: 1000,
        optionName: 'max-wait-ms',
        sleep: async (ms) => {
          waits.push(ms);
        },
        check: async () =>
          waits.length === 0 ? { state: 'pending' } : { state: 'failed', reason: 'quota exceeded' },
      }),
    ).rejects.toThrow('Job 1 failed on the service side: quota exceeded.');
    expect(waits).toEqual([100]);
  });
});
