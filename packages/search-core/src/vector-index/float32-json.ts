/**
 * A float32 vector (finite components) as a JSON array with at most 9 significant digits per
 * number: the fewest that always read back to the same float32 (IEEE 754 binary32), so a server
 * that stores float32 (Qdrant) gets exactly the vector lme holds, in about two thirds of the bytes
 * `JSON.stringify` writes for it (up to 17 digits, for the float64 it widens to).
 *
 * Written digit by digit into a byte buffer (a third of `toPrecision(9)`'s time: a question's
 * haystack is ~100k numbers). The 9-digit mantissa comes from one float64 product, so its last
 * digit can be one off the correctly rounded one; it still reads back to the same float32, since
 * one unit in the 9th digit (at most 1e-8 of the value) is under half a float32 step (2^-25 of
 * it). Components outside [1e-4, 1e9) in magnitude (a few in a thousand of an embedding's) take
 * `toPrecision(9)`.
 */
export function float32Json(vector: Float32Array): string {
  const out = Buffer.allocUnsafe(float32JsonMaxBytes(vector.length));
  return out.toString('latin1', 0, writeFloat32Json(out, 0, vector));
}

/** The most bytes `writeFloat32Json` writes for a vector of `length` components. */
export function float32JsonMaxBytes(length: number): number {
  // At most 17 bytes a number (toPrecision's `-0.00000123456789`), a comma each, two brackets.
  return length * 18 + 2;
}

/** Writes `float32Json(vector)` into `out` from `start` (room for `float32JsonMaxBytes`); returns the end. */
export function writeFloat32Json(out: Buffer, start: number, vector: Float32Array): number {
  const bits = new Uint32Array(vector.buffer, vector.byteOffset, vector.length);
  let at = start;
  out[at++] = 0x5b; // [
  for (let index = 0; index < vector.length; index++) {
    if (index > 0) out[at++] = 0x2c; // ,
    let value = vector[index]!;
    if (value === 0) {
      out[at++] = 0x30;
      continue;
    }
    if (!(Math.abs(value) >= 1e-4 && Math.abs(value) < 1e9)) {
      at += out.write(value.toPrecision(9), at, 'latin1');
      continue;
    }
    if (value < 0) {
      out[at++] = 0x2d; // -
      value = -value;
    }
    // Decimal exponent: estimated from the binary one, then corrected against the power table.
    let exponent = Math.floor((((bits[index]! >>> 23) & 0xff) - 127) * Math.LOG10E * Math.LN2);
    if (value >= POWERS_OF_TEN[exponent + 1 + POWER_BIAS]!) exponent++;
    let mantissa = Math.round(value * POWERS_OF_TEN[8 - exponent + POWER_BIAS]!);
    if (mantissa >= 1e9) mantissa = Math.round(value * POWERS_OF_TEN[8 - ++exponent + POWER_BIAS]!);
    else if (mantissa < 1e8) mantissa = Math.round(value * POWERS_OF_TEN[8 - --exponent + POWER_BIAS]!);
    let digits = 9;
    while (digits > 1 && mantissa % 10 === 0) {
      mantissa /= 10;
      digits--;
    }
    // value = 0.d1…d9 × 10^(exponent + 1); the point goes after `whole` digits (none: leading zeros).
    const whole = exponent + 1;
    if (whole <= 0) {
      out[at++] = 0x30;
      out[at++] = 0x2e;
      for (let zero = whole; zero < 0; zero++) out[at++] = 0x30;
      at = writeDigits(out, at, mantissa, digits, -1);
    } else if (whole >= digits) {
      at = writeDigits(out, at, mantissa, digits, -1);
      for (let zero = digits; zero < whole; zero++) out[at++] = 0x30;
    } else {
      at = writeDigits(out, at, mantissa, digits, whole);
    }
  }
  out[at++] = 0x5d; // ]
  return at;
}

const POWER_BIAS = 40;
/** 10^-40 … 10^39 (index + POWER_BIAS), as float64. */
const POWERS_OF_TEN = Array.from({ length: 80 }, (_, index) => 10 ** (index - POWER_BIAS));

/** Writes `count` decimal digits of `mantissa` at `at`, with a point after `point` of them (-1: none). */
function writeDigits(out: Buffer, at: number, mantissa: number, count: number, point: number): number {
  const end = at + count + (point >= 0 ? 1 : 0);
  // Below 10^9 < 2^31: small-integer arithmetic.
  let rest = mantissa | 0;
  for (let position = end - 1; position >= at; position--) {
    if (position === at + point) {
      out[position] = 0x2e;
      continue;
    }
    const tenth = (rest / 10) | 0;
    out[position] = 0x30 + rest - tenth * 10;
    rest = tenth;
  }
  return end;
}
