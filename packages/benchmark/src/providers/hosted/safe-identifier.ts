import { createHash } from 'node:crypto';

/**
 * An lme id (a namespace, an opaque session id) as an identifier a service accepts
 * (`[A-Za-z0-9._-]`, bounded length): the id itself when it already fits, otherwise `lme-` and
 * 32 hex digits of its SHA-256, so the same id always gives the same identifier and two ids never
 * meet.
 */
export function safeIdentifier(value: string, maxLength = 100): string {
  if (value.length <= maxLength && /^[A-Za-z0-9._-]+$/.test(value)) return value;
  return `lme-${createHash('sha256').update(value).digest('hex').slice(0, 32)}`;
}
