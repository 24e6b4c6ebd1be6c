import { createHmac, randomBytes } from 'node:crypto';

/** A secret for one bridge process (LME_BRIDGE_TOKEN), never written anywhere. */
export function bridgeToken(): string {
  return randomBytes(32).toString('hex');
}

/**
 * Whether the listener at `url` is the bridge lme started: its health reply answers a fresh
 * challenge with the HMAC-SHA256 of it under the token only that child was given. A port printed by
 * a bridge but held by another local process fails, before any haystack is sent to it.
 */
export async function provesBridge(url: string, token: string, timeoutMs = 30_000): Promise<boolean> {
  const challenge = randomBytes(16).toString('hex');
  const reply = await fetch(`${url}/v1/health`, {
    headers: { 'x-lme-challenge': challenge },
    signal: AbortSignal.timeout(timeoutMs),
  });
  const body = (await reply.json().catch(() => ({}))) as { proof?: unknown };
  return body.proof === createHmac('sha256', token).update(challenge).digest('hex');
}
