import { Command } from 'commander';
import { configFromEnvironment } from '../config/run-options.js';
import { parseRunSections } from '../config/run-sections.js';
import { addSecret } from '../config/secrets.js';
import { serve } from '../serve/serve.js';
import { log } from './logger.js';
import { integerFlag } from './parse-flag.js';
import { addRunOptions, configFromFlags } from './run-option-flags.js';

type ServeFlags = {
  port: number;
  host: string;
  maxNamespaces: number;
  maxMemoryMb: number;
  authEnv?: string;
};

/** The run options `lme serve` takes, declared once with `lme run`'s (config/run-options.ts). */
const SERVE_RUN_KEYS = ['plugins', 'retriever', 'tokenizer', 'granularity', 'indexRoles'] as const;

/**
 * Every run option keeps `lme run`'s default, --index-roles included (user): a client running
 * `lme run --index-roles all` needs a server started with `--index-roles all`.
 */
const SERVE_OVERRIDES = {
  granularity: { help: 'documents of searches that name no granularity: sessions or turns' },
  indexRoles: {
    help: 'turns indexed of those ingested: user only (as lme run), or all (to serve lme run --index-roles all)',
  },
};

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/** `lme serve`: an lme pipeline behind the HTTP provider protocol, until Ctrl-C. */
export function serveCommand(): Command {
  return addRunOptions(
    new Command('serve').description(
      'serve an lme pipeline over the HTTP provider protocol (docs/provider-protocol.md)',
    ),
    SERVE_RUN_KEYS,
    SERVE_OVERRIDES,
  )
    .requiredOption('-p, --port <n>', 'port to listen on (0: any free port)', integerFlag(0, 65535))
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .option(
      '--max-namespaces <n>',
      'namespaces held in memory; the least recently used is dropped',
      integerFlag(1),
      256,
    )
    .option(
      '--max-memory-mb <n>',
      'estimated memory all namespaces may hold; least recently used ones are dropped beyond it, and an ingest that alone exceeds it is refused (507)',
      integerFlag(1),
      1024,
    )
    .option(
      '--auth-env <name>',
      'environment variable holding a token: every request must then send Authorization: Bearer <token> (else 401)',
    )
    .addHelpText(
      'after',
      '\nExample:\n' +
        '  lme serve --port 8787 --retriever bm25 --tokenizer words\n' +
        '  lme run --provider http --provider-url http://127.0.0.1:8787 --dataset sample\n' +
        '  LME_SERVE_TOKEN=... lme serve --port 8787 --auth-env LME_SERVE_TOKEN   (clients: --provider-auth-env\n' +
        '  naming a variable that holds "Bearer <the same token>")',
    )
    .action(async (flags: ServeFlags, command: Command) => {
      const sections = parseRunSections({
        ...configFromEnvironment(process.env),
        ...configFromFlags(command),
      });
      const { retrieval } = sections;
      let authToken: string | undefined;
      if (flags.authEnv !== undefined) {
        authToken = process.env[flags.authEnv];
        if (!authToken) {
          throw new Error(
            `The environment variable ${flags.authEnv} (named by --auth-env) is not set; it must hold the token clients send as Authorization: Bearer <token>.`,
          );
        }
        addSecret(authToken);
      }
      const server = await serve({
        sections,
        host: flags.host,
        port: flags.port,
        maxNamespaces: flags.maxNamespaces,
        maxMemoryBytes: flags.maxMemoryMb * 1024 * 1024,
        ...(authToken === undefined ? {} : { authToken }),
      });
      if (!LOOPBACK.has(flags.host) && authToken === undefined) {
        log.warn(
          `lme serve: listening on ${flags.host} without authentication; anyone who can reach it can use it.`,
        );
      }
      log.info(
        `lme serve: ${retrieval.retriever} (${retrieval.tokenizer} tokenizer, ${retrieval.indexRoles} roles, at most ${flags.maxMemoryMb} MB${authToken === undefined ? '' : ', bearer token required'}) listening on ${server.url}`,
      );
      await new Promise<void>((resolve) => {
        let stopping = false;
        const onSignal = () => {
          if (stopping) process.exit(130);
          stopping = true;
          process.stderr.write('lme serve: shutting down (Ctrl-C again to quit now)\n');
          resolve();
        };
        process.on('SIGINT', onSignal);
        process.on('SIGTERM', onSignal);
      });
      await server.close();
      log.info('lme serve: stopped');
    });
}
