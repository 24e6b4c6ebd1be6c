import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type ComponentOption,
  componentsOwning,
  optionDeclarations,
  optionShape,
  ownOptions,
} from './component.js';

const depth: ComponentOption = {
  schema: z.number().int().default(20),
  flags: '--depth <n>',
  group: 'stages',
  help: 'candidates',
};
const registry = {
  a: {
    name: 'a',
    options: {
      depth,
      mode: { schema: z.enum(['x', 'y']).optional(), flags: '--mode <m>', group: 'stages', help: 'mode' },
    },
  },
  b: { name: 'b', options: { depth } },
  c: { name: 'c', options: {} },
} as const;

describe('component options', () => {
  it('gives the run config one schema per key, a key two components share counted once', () => {
    const shape = optionShape(registry);
    expect(Object.keys(shape).sort()).toEqual(['depth', 'mode']);
    expect(z.object(shape).parse({})).toEqual({ depth: 20 });
    expect(optionDeclarations(registry).map((option) => option.key)).toEqual(['depth', 'mode']);
    expect(optionDeclarations(registry)[0]).toEqual({
      key: 'depth',
      flags: '--depth <n>',
      group: 'stages',
      help: 'candidates',
    });
  });

  it('refuses one key declared by two components with different schemas, naming it', () => {
    const clash = {
      a: { name: 'a', options: { depth } },
      b: { name: 'b', options: { depth: { ...depth } } },
    };
    expect(() => optionShape(clash)).toThrow(/"depth" is declared twice/);
  });

  it('names the components owning a key and hands a component only its own options', () => {
    expect(componentsOwning(registry, 'depth')).toEqual(['a', 'b']);
    expect(componentsOwning(registry, 'mode')).toEqual(['a']);
    expect(componentsOwning(registry, 'other')).toEqual([]);
    expect(ownOptions(registry.b, { depth: 5, mode: 'x', dataset: 'sample' })).toEqual({ depth: 5 });
  });
});
