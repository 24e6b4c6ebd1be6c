import { z } from 'zod';

/**
 * An endpoint URL. Config is written to config.json, so a URL carrying credentials
 * (`https://user:secret@host`) is refused: keys belong in the environment.
 */
export const endpointUrl = z
  .string()
  .url()
  // An unparsable URL is reported by .url() above; these checks must not throw on it.
  .refine((value) => {
    const url = URL.canParse(value) ? new URL(value) : undefined;
    return !url || (url.username === '' && url.password === '');
  }, 'must not carry credentials (user:password@); put keys in the environment')
  // A query can carry a key too, and config.json stores the URL: base URLs only (config/secrets.ts).
  .refine((value) => {
    const url = URL.canParse(value) ? new URL(value) : undefined;
    return !url || (url.search === '' && url.hash === '');
  }, 'must be a base URL without a query string or fragment (a query can carry a key)');
