import { describe, expect, it } from 'vitest';
import { shardFromEnvironment } from './shard-from-env.js';

describe('--shard-from-env reads the shard from a job engine variable', () => {
  it('turns a Kubernetes completion index (from 0) into the 1-based shard', () => {
    expect(shardFromEnvironment('JOB_COMPLETION_INDEX/4', { JOB_COMPLETION_INDEX: '0' })).toBe('1/4');
    expect(shardFromEnvironment('JOB_COMPLETION_INDEX/4', { JOB_COMPLETION_INDEX: '3' })).toBe('4/4');
  });

  it('reads a GitLab node index from 1 and its count from CI_NODE_TOTAL', () => {
    expect(shardFromEnvironment('CI_NODE_INDEX', { CI_NODE_INDEX: '1', CI_NODE_TOTAL: '3' })).toBe('1/3');
    expect(shardFromEnvironment('CI_NODE_INDEX', { CI_NODE_INDEX: '3', CI_NODE_TOTAL: '3' })).toBe('3/3');
  });

  it('reads any other variable as a 0-based index with the count after the slash', () => {
    expect(shardFromEnvironment('LME_SHARD_INDEX/2', { LME_SHARD_INDEX: ' 1 ' })).toBe('2/2');
  });

  it('refuses an unset variable in one sentence naming it', () => {
    expect(() => shardFromEnvironment('JOB_COMPLETION_INDEX/4', {})).toThrow(
      /^--shard-from-env JOB_COMPLETION_INDEX\/4: the variable JOB_COMPLETION_INDEX is not set in this process; run it as one of a Kubernetes Indexed Job's copies, or pass --shard i\/n\.$/,
    );
  });

  it('refuses a value that is not a whole number, or out of range', () => {
    expect(() => shardFromEnvironment('JOB_COMPLETION_INDEX/4', { JOB_COMPLETION_INDEX: 'two' })).toThrow(
      '--shard-from-env JOB_COMPLETION_INDEX/4: JOB_COMPLETION_INDEX is "two", not a whole number from 0 to 9007199254740991.',
    );
    expect(() => shardFromEnvironment('JOB_COMPLETION_INDEX/4', { JOB_COMPLETION_INDEX: '4' })).toThrow(
      '--shard-from-env JOB_COMPLETION_INDEX/4: JOB_COMPLETION_INDEX is 4, outside 0..3 for 4 shards (JOB_COMPLETION_INDEX counts from 0).',
    );
    expect(() => shardFromEnvironment('CI_NODE_INDEX', { CI_NODE_INDEX: '0', CI_NODE_TOTAL: '2' })).toThrow(
      /outside 1\.\.2 for 2 shards/,
    );
  });

  it('names --shard-from-env, never --shard, for a count or index too large to hold exactly', () => {
    expect(() =>
      shardFromEnvironment('JOB_COMPLETION_INDEX/99999999999999999999999', { JOB_COMPLETION_INDEX: '0' }),
    ).toThrow(
      '--shard-from-env JOB_COMPLETION_INDEX/99999999999999999999999: the shard count after the slash must be a whole number from 1 to 9007199254740991.',
    );
    expect(() =>
      shardFromEnvironment('JOB_COMPLETION_INDEX/4', { JOB_COMPLETION_INDEX: '9'.repeat(100) }),
    ).toThrow(
      /^--shard-from-env JOB_COMPLETION_INDEX\/4: JOB_COMPLETION_INDEX is "9{40}…", not a whole number/,
    );
  });

  it('asks for the count when the engine does not give one, and refuses a bad count or name', () => {
    expect(() => shardFromEnvironment('JOB_COMPLETION_INDEX', { JOB_COMPLETION_INDEX: '0' })).toThrow(
      /needs the shard count after a slash, such as JOB_COMPLETION_INDEX\/4/,
    );
    expect(() => shardFromEnvironment('CI_NODE_INDEX', { CI_NODE_INDEX: '1' })).toThrow(
      /CI_NODE_TOTAL is not set; give the count as CI_NODE_INDEX\/<n>/,
    );
    expect(() => shardFromEnvironment('X/0', { X: '0' })).toThrow(/must be a whole number from 1/);
    expect(() => shardFromEnvironment('1X', { X: '0' })).toThrow(/expects a variable name/);
  });
});
