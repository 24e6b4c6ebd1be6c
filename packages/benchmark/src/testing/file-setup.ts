import { afterAll } from 'vitest';
import { forgetSecrets } from '../config/secrets.js';

// Before every test file of the benchmark project (vitest.config.ts). Its files share a worker's
// modules (isolate: false), so what a file leaves in module state goes before the next file, as a
// fresh worker would start without it: the secrets it registered (an in-process run's keys), which
// would otherwise redact the next file's expected text.
afterAll(() => forgetSecrets());
