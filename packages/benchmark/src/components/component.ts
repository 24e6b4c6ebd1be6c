import type { z } from 'zod';
import type { RunOptionDeclaration } from './option-declaration.js';

/**
 * One option a component owns: its zod schema (type, bounds, default) and its flag, help and help
 * section. The config key is the option's key in the component's `options`. Two components that
 * read the same key share one `ComponentOption` object (the registry refuses two different ones).
 */
export type ComponentOption = Omit<RunOptionDeclaration, 'key'> & {
  readonly schema: z.ZodType;
  /**
   * `false`: the option does not change what a run measures (where files are, how many threads,
   * which variable holds a key), so a resumed run may differ in it and the fingerprint leaves it
   * out (config/run-config.ts `NON_RESULT_KEYS`). Unset: it does.
   */
  readonly measures?: false;
};

export type ComponentOptions = Readonly<Record<string, ComponentOption>>;

/** A component's options as the resolved config holds them (what its factory receives). */
export type OptionValues<O extends ComponentOptions> = { -readonly [K in keyof O]: z.output<O[K]['schema']> };

/**
 * What every component (retriever, embedder family, reranker family) declares: its name, one line
 * of description, the options it owns and the capabilities the rest of the program asks about
 * instead of its name. Each kind adds its factory (`create(options, dependencies)`).
 */
export type ComponentDescriptor<O extends ComponentOptions, Capabilities> = {
  readonly name: string;
  readonly description: string;
  readonly options: O;
  readonly capabilities: Capabilities;
};

/** A registry of one kind: name → descriptor (a const object, so option types are kept). */
export type ComponentRegistry = Readonly<
  Record<string, { readonly name: string; readonly options: ComponentOptions }>
>;

type UnionToIntersection<U> = (U extends unknown ? (value: U) => void : never) extends (
  value: infer I,
) => void
  ? I
  : never;
type SchemasOf<O> = { [K in keyof O]: O[K] extends { schema: infer S } ? S : never };

/** The zod shape of every option a registry's components own. */
export type OptionShapeOf<R extends ComponentRegistry> = [keyof R] extends [never]
  ? // biome-ignore lint/complexity/noBannedTypes: an empty registry owns no keys.
    {}
  : UnionToIntersection<{ [N in keyof R]: SchemasOf<R[N]['options']> }[keyof R]>;

/** Every option of a registry once, by key; a key two components declare differently is refused. */
function optionsByKey(registry: ComponentRegistry): Map<string, ComponentOption> {
  const byKey = new Map<string, ComponentOption>();
  for (const descriptor of Object.values(registry)) {
    for (const [key, option] of Object.entries(descriptor.options)) {
      const known = byKey.get(key);
      if (known && known !== option)
        throw new Error(
          `Component option "${key}" is declared twice with different schemas (${descriptor.name} and another); share one ComponentOption.`,
        );
      byKey.set(key, option);
    }
  }
  return byKey;
}

/** The zod shape of a registry's options, for the run config schema. */
export function optionShape<R extends ComponentRegistry>(registry: R): OptionShapeOf<R> {
  return Object.fromEntries(
    [...optionsByKey(registry)].map(([key, option]) => [key, option.schema]),
  ) as OptionShapeOf<R>;
}

/** A registry's options as run option declarations (flags, help), for `lme run --help` and commander. */
export function optionDeclarations(registry: ComponentRegistry): RunOptionDeclaration[] {
  return [...optionsByKey(registry)].map(
    ([key, { schema: _schema, measures: _measures, ...declaration }]) => ({
      key,
      ...declaration,
    }),
  );
}

/** The keys of a registry's options that do not change what a run measures (`measures: false`). */
export function nonMeasuringKeys(registry: ComponentRegistry): string[] {
  return [...optionsByKey(registry)].filter(([, option]) => option.measures === false).map(([key]) => key);
}

/** The names of the components of a registry that own `key`. */
export function componentsOwning(registry: ComponentRegistry, key: string): string[] {
  return Object.values(registry)
    .filter((descriptor) => Object.hasOwn(descriptor.options, key))
    .map((descriptor) => descriptor.name);
}

/** A component's own options, picked from a resolved config (what its factory receives). */
export function ownOptions<O extends ComponentOptions>(
  descriptor: { readonly options: O },
  config: Readonly<Record<string, unknown>>,
): OptionValues<O> {
  return Object.fromEntries(
    Object.keys(descriptor.options)
      .filter((key) => config[key] !== undefined)
      .map((key) => [key, config[key]]),
  ) as OptionValues<O>;
}
