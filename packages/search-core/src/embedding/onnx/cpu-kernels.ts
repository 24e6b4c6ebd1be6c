import { readFileSync } from 'node:fs';

/**
 * The family of matrix kernels ONNX Runtime's CPU provider runs an int8 model with on this machine,
 * as its MLAS library picks them from the CPU's instruction set: the first of these tiers the CPU has
 * (x64: AMX, AVX-512 VNNI, AVX-512 BW/DQ/VL, AVX-VNNI, AVX2 with FMA, AVX, SSE4.1, SSE2; arm64:
 * i8mm, dot product, NEON). Kernels of two tiers may round differently, so an int8 model's vectors
 * can differ in their last digits between two kinds of CPU (docs/embedders.md); the embedding cache
 * keys vectors by this family too, so a cache filled on one kind of CPU is never read on another.
 * Where the flags cannot be read (no /proc/cpuinfo) the family is the architecture alone.
 */
export function cpuKernelFamily(cpuinfo: string | undefined, arch: string): string {
  const line = cpuinfo?.split('\n').find((text) => /^(flags|Features)\s*:/.test(text));
  if (!line) return arch;
  const flags = new Set(
    line
      .slice(line.indexOf(':') + 1)
      .trim()
      .split(/\s+/),
  );
  const has = (...names: string[]) => names.every((name) => flags.has(name));
  const tiers: [string, boolean][] =
    arch === 'arm64'
      ? [
          ['i8mm', has('i8mm')],
          ['dotprod', has('asimddp')],
          ['neon', has('asimd')],
        ]
      : [
          ['amx', has('amx_int8', 'amx_tile')],
          ['avx512vnni', has('avx512f', 'avx512bw', 'avx512dq', 'avx512vl', 'avx512_vnni')],
          ['avx512core', has('avx512f', 'avx512bw', 'avx512dq', 'avx512vl')],
          ['avxvnni', has('avx2', 'fma', 'avx_vnni')],
          ['avx2', has('avx2', 'fma')],
          ['avx', has('avx')],
          ['sse41', has('sse4_1')],
          ['sse2', has('sse2')],
        ];
  const tier = tiers.find(([, present]) => present)?.[0];
  return tier ? `${arch}-${tier}` : arch;
}

let machineFamily: string | undefined;

/** This machine's family, from /proc/cpuinfo read once per process. */
export function machineKernelFamily(): string {
  machineFamily ??= cpuKernelFamily(readCpuinfo(), process.arch);
  return machineFamily;
}

function readCpuinfo(): string | undefined {
  try {
    return readFileSync('/proc/cpuinfo', 'utf8');
  } catch {
    return undefined;
  }
}
