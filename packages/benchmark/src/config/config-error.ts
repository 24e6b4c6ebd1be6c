/**
 * A run config that cannot run: an unknown or out-of-range value, or keys that contradict each
 * other. Callers branch on `code` (or `instanceof`); `keys` names the config keys at fault and
 * `flags` the same keys as the CLI spells them, so a message can point at what the user typed.
 * Never retryable: the same config fails the same way.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly code = 'config_invalid' as const;
  readonly isRetryable = false;
  readonly keys: readonly string[];

  constructor(message: string, keys: readonly string[] = []) {
    super(message);
    this.keys = keys;
  }

  static isInstance(error: unknown): error is ConfigError {
    return error instanceof ConfigError;
  }
}

/** Looks a name up in a const-map registry; an unknown name is a ConfigError listing the known ones. */
export function fromRegistry<Registry extends Readonly<Record<string, unknown>>>(
  registry: Registry,
  name: string,
  what: { key: string; label: string },
): Registry[keyof Registry] {
  if (Object.hasOwn(registry, name)) return registry[name as keyof Registry];
  throw new ConfigError(`Unknown ${what.label} "${name}"; known: ${Object.keys(registry).join(', ')}.`, [
    what.key,
  ]);
}
