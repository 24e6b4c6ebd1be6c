import { describe, expect, it } from 'vitest';
import { cpuKernelFamily, machineKernelFamily } from './cpu-kernels.js';

/** A /proc/cpuinfo of one core with these flags (the other fields as Linux writes them). */
const cpuinfo = (key: 'flags' | 'Features', flags: string) =>
  `processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC\n${key}\t\t: ${flags}\nbogomips\t: 4890.85\n\n`;
const base =
  'fpu vme de pse tsc msr pae mce cx8 apic sep sse sse2 ht syscall nx lm pni ssse3 sse4_1 sse4_2 popcnt';

describe('cpuKernelFamily', () => {
  it.each([
    // The two EPYCs of 2026-11-26: keyed apart, though their vectors measured alike (docs/embedders.md);
    // a family split too finely costs one cold run, one merged too coarsely costs wrong figures.
    ['an EPYC without AVX2 (flags end at avx f16c)', `${base} aes xsave avx f16c`, 'x64-avx'],
    ['an EPYC with AVX2 and FMA', `${base} fma aes xsave avx f16c avx2 bmi2`, 'x64-avx2'],
    ['AVX-VNNI', `${base} fma avx avx2 avx_vnni`, 'x64-avxvnni'],
    ['AVX-512 without VNNI', `${base} fma avx avx2 avx512f avx512dq avx512bw avx512vl`, 'x64-avx512core'],
    ['AVX-512 VNNI', `${base} fma avx avx2 avx512f avx512dq avx512bw avx512vl avx512_vnni`, 'x64-avx512vnni'],
    [
      'AMX',
      `${base} fma avx avx2 avx512f avx512dq avx512bw avx512vl avx512_vnni amx_tile amx_int8`,
      'x64-amx',
    ],
    ['SSE4.1 only', base, 'x64-sse41'],
  ])('names %s', (_, flags, family) => {
    expect(cpuKernelFamily(cpuinfo('flags', flags), 'x64')).toBe(family);
  });

  it('names arm64 tiers from the Features line', () => {
    expect(cpuKernelFamily(cpuinfo('Features', 'fp asimd evtstrm aes crc32 asimddp i8mm'), 'arm64')).toBe(
      'arm64-i8mm',
    );
    expect(cpuKernelFamily(cpuinfo('Features', 'fp asimd evtstrm aes crc32 asimddp'), 'arm64')).toBe(
      'arm64-dotprod',
    );
    expect(cpuKernelFamily(cpuinfo('Features', 'fp asimd evtstrm'), 'arm64')).toBe('arm64-neon');
  });

  it('is the architecture alone where no flags can be read', () => {
    expect(cpuKernelFamily(undefined, 'arm64')).toBe('arm64');
    expect(cpuKernelFamily('processor\t: 0\n', 'x64')).toBe('x64');
  });

  it("names this machine's family", () => {
    expect(machineKernelFamily()).toMatch(new RegExp(`^${process.arch}(-[a-z0-9]+)?$`));
  });
});
