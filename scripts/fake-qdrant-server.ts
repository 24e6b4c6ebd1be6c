/**
 * The loopback Qdrant stand-in (packages/search-core/src/testing/qdrant-wire-server.ts) as a
 * process, for trying `--vector-store qdrant` without a server; prints its URL on stdout and
 * serves until killed:
 *
 *   pnpm tsx --conditions=source scripts/fake-qdrant-server.ts [--version 1.18.3] [--short-reply] [--fail-drop] [--fail-search]
 *
 * --short-reply answers every query with all but one matching point (Qdrant 1.18.0 mid-optimisation);
 * --fail-drop answers a collection delete with a 500; --fail-search every query with a 500.
 */
import { parseArgs } from 'node:util';
import { startFakeQdrant } from '../packages/search-core/src/testing/qdrant-wire-server.js';

const { values } = parseArgs({
  options: {
    version: { type: 'string', default: '1.18.3' },
    'short-reply': { type: 'boolean', default: false },
    'fail-drop': { type: 'boolean', default: false },
    'fail-search': { type: 'boolean', default: false },
  },
});
const serverError = {
  status: 500,
  body: { status: { error: 'Service internal error: injected by fake-qdrant-server' } },
};
const fake = await startFakeQdrant({
  version: values.version!,
  ...(values['short-reply'] ? { shortReply: ({ matched }) => Math.max(0, matched - 1) } : {}),
  fail: (route) =>
    (values['fail-drop'] && /^DELETE \/collections\/[^/]+$/.test(route)) ||
    (values['fail-search'] && route.endsWith('/points/query'))
      ? serverError
      : undefined,
});
console.log(fake.url);
