import { afterEach, expect, it } from 'vitest';
import { forgetSecrets } from '../config/secrets.js';
import type { ExternalSearchRequest } from '../providers/external/external-memory.js';
import type { ExternalMemoryDependencies } from '../providers/external/external-memory-descriptor.js';
import type { HostedMemory, HostedTestHooks } from '../providers/hosted/hosted-connection.js';
import { type HostedStandIn, STAND_IN_KEY } from './hosted-api-stand-in.js';

/** What one hosted adapter's test file gives the shared set-up and checks. */
export type HostedContract<Started extends { standIn: HostedStandIn }, StandInOptions = undefined> = {
  /** The service as messages name it, e.g. `Mem0 Platform`. */
  displayName: string;
  apiKeyEnv: string;
  /** A stand-in following the service's reference, answering only `STAND_IN_KEY`. */
  start(options?: StandInOptions): Promise<Started>;
  /** The adapter built from `--provider-option` text (`base-url` included). */
  create(
    options: Record<string, string>,
    dependencies: ExternalMemoryDependencies,
    hooks: HostedTestHooks,
  ): HostedMemory;
  /** A search the adapter accepts (before any ingest). */
  search: Omit<ExternalSearchRequest, 'namespace'>;
};

/** The dependencies a hosted adapter gets in tests: `environment`, a 5 s timeout, two retries. */
export function hostedTestDependencies(
  environment: Record<string, string | undefined>,
): ExternalMemoryDependencies {
  return { environment, timeoutMs: 5000, maxRetries: 2, workDir: '/tmp' };
}

/** Hooks that record the waits an adapter asks for instead of sleeping. */
export function recordingWaits(): { waits: number[]; hooks: HostedTestHooks } {
  const waits: number[] = [];
  return {
    waits,
    hooks: {
      sleep: async (ms) => {
        waits.push(ms);
      },
    },
  };
}

/**
 * Registers, in the calling `describe`, the clean-up after each test (stand-in closed, secrets
 * forgotten) and returns the set-up: a fresh stand-in and the adapter built against it from
 * `options` (as `--provider-option` text), with `key` in its variable and its waits recorded.
 */
export function hostedSetUp<Started extends { standIn: HostedStandIn }, StandInOptions = undefined>(
  contract: HostedContract<Started, StandInOptions>,
) {
  let standIn: HostedStandIn | undefined;
  afterEach(async () => {
    await standIn?.close();
    standIn = undefined;
    forgetSecrets();
  });
  return async (
    options: Record<string, string> = {},
    { key = STAND_IN_KEY, standInOptions }: { key?: string; standInOptions?: StandInOptions } = {},
  ) => {
    const started = await contract.start(standInOptions);
    standIn = started.standIn;
    const { waits, hooks } = recordingWaits();
    const memory = contract.create(
      { 'base-url': started.standIn.url, ...options },
      hostedTestDependencies({ [contract.apiKeyEnv]: key }),
      hooks,
    );
    return { ...started, memory, waits };
  };
}

/** One sentence: ends with a period and has no sentence break inside. */
export function expectOneSentence(message: string): void {
  expect(message).toMatch(/\.$/);
  expect(message.slice(0, -1)).not.toMatch(/[.!?]\s+[A-Z]/);
}

/**
 * The checks every hosted adapter passes against its stand-in: the key only from its variable,
 * never in a message; a refused key and a reply of the wrong shape as one sentence; 429 and 5xx
 * retried with the waits the client's policy gives (recorded, not slept).
 */
export function hostedContractChecks<Started extends { standIn: HostedStandIn }, StandInOptions>(
  contract: HostedContract<Started, StandInOptions>,
): void {
  const setUp = hostedSetUp(contract);

  it(`refuses to start without ${contract.apiKeyEnv}, in one sentence naming it`, () => {
    const failure = (() => {
      try {
        contract.create({ 'base-url': 'http://127.0.0.1:9' }, hostedTestDependencies({}), {});
      } catch (error) {
        return error as Error;
      }
      return undefined;
    })();
    expect(failure?.message).toContain(contract.apiKeyEnv);
    expectOneSentence(failure!.message);
  });

  it('says in one sentence that the key was refused, naming the variable and never the key', async () => {
    const wrongKey = 'sk-wrong-key-0123456789abcdef';
    const { memory } = await setUp({}, { key: wrongKey });
    const failure = (await memory.preflight().catch((error: unknown) => error)) as Error;
    expect(failure.message).toMatch(
      new RegExp(
        `^${contract.displayName} at http://127\\.0\\.0\\.1:\\d+ refused the key in ${contract.apiKeyEnv} \\(HTTP 401 on `,
      ),
    );
    expectOneSentence(failure.message);
    expect(failure.message).not.toContain(wrongKey);
    expect(failure.message).not.toContain(wrongKey.slice(0, 10));
  });

  it('says in one sentence, after its retries, that nothing answers at the base URL', async () => {
    const closed = (await contract.start()).standIn;
    const url = closed.url;
    await closed.close();
    const { waits, hooks } = recordingWaits();
    const memory = contract.create(
      { 'base-url': url },
      hostedTestDependencies({ [contract.apiKeyEnv]: STAND_IN_KEY }),
      hooks,
    );
    const failure = (await memory.preflight().catch((error: unknown) => error)) as Error;
    expect(failure.message).toMatch(
      new RegExp(
        `^${contract.displayName}: GET ${url.replace(/[.:/]/g, '\\$&')}/\\S+ failed: ECONNREFUSED.* after 3 attempts\\.$`,
      ),
    );
    expect(waits).toEqual([500, 1000]);
  });

  it('retries a 429 (waiting as retry-after asks) and a 503, then succeeds', async () => {
    const { standIn, memory, waits } = await setUp();
    standIn.failNext({ status: 429, headers: { 'retry-after': '2' }, body: {} }, { status: 503, body: {} });
    await memory.preflight();
    expect(standIn.requests.slice(0, 3).map((request) => request.status)).toEqual([429, 503, 200]);
    expect(waits).toEqual([2000, 1000]);
  });

  it('never lets the key reach an error message, even when the service echoes it', async () => {
    const { standIn, memory } = await setUp();
    const echo = { status: 500, body: { error: { message: `bad request for key ${STAND_IN_KEY}` } } };
    standIn.failNext(echo, echo, echo);
    const failure = (await memory.preflight().catch((error: unknown) => error)) as Error;
    expect(failure.message).toContain('HTTP 500');
    expect(failure.message).not.toContain(STAND_IN_KEY);
    expect(failure.message).not.toContain(STAND_IN_KEY.slice(0, 12));
  });

  it('says in one sentence that a malformed reply cannot be read, naming the request', async () => {
    const { standIn, memory } = await setUp();
    standIn.failNext({ status: 200, body: { results: 'not a list', edges: 7, episodes: 'x' } });
    const failure = (await memory
      .search({ ...contract.search, namespace: 'ns-1' })
      .catch((error: unknown) => error)) as Error;
    expect(failure.message).toMatch(
      new RegExp(
        `^${contract.displayName}: (GET|POST) http://127\\.0\\.0\\.1:\\d+/\\S+ returned a reply lme cannot read \\(`,
      ),
    );
    expectOneSentence(failure.message);
  });
}
