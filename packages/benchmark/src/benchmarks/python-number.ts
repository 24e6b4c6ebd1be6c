/**
 * The numbers of the official LoCoMo scripts keep Python's int/float distinction, which shows in
 * what they print (`70.0` for a float sum, `0` for an int one). A PythonNumber carries it.
 */
export type PythonNumber = { value: number; isInt: boolean };

export const pyInt = (value: number): PythonNumber => ({ value, isInt: true });
export const pyFloat = (value: number): PythonNumber => ({ value, isInt: false });

/** `a + b` with Python's promotion (int + int is int, anything with a float is float). */
export function pyAdd(left: PythonNumber, right: PythonNumber): PythonNumber {
  return { value: left.value + right.value, isInt: left.isInt && right.isInt };
}

/**
 * Python's `round(x, 3)`: an int stays an int; a float is rounded correctly (on its exact binary
 * value) with ties to even. `toFixed` is exact except that it breaks ties upwards; the only
 * doubles exactly halfway between two multiples of 0.001 are the odd multiples of 1/16.
 */
export function pyRound3(number: PythonNumber): PythonNumber {
  if (number.isInt) return number;
  return pyFloat(roundFloat3(number.value));
}

export function roundFloat3(value: number): number {
  if (!Number.isFinite(value)) return value;
  const sixteenths = value * 16;
  if (Number.isInteger(sixteenths) && Math.abs(sixteenths) % 2 === 1) {
    const thousandths = value * 1000; // exact: an odd multiple of 62.5
    const down = Math.floor(thousandths);
    return (down % 2 === 0 ? down : down + 1) / 1000;
  }
  return Number(value.toFixed(3));
}

/** `str(x)` / `print(x)` of a Python int or float (repr: shortest round-trip digits). */
export function pyStr(number: PythonNumber): string {
  const { value } = number;
  if (number.isInt) return BigInt(Math.trunc(value)).toString();
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(value);
  if (abs >= 1e16 || abs < 1e-4) {
    // Python switches to exponent notation outside [1e-4, 1e16): 1e-05, 1.5e+16.
    const [mantissa, exponent] = value.toExponential().split('e') as [string, string];
    const sign = exponent.startsWith('-') ? '-' : '+';
    const digits = exponent.replace(/^[+-]/, '').padStart(2, '0');
    return `${mantissa}e${sign}${digits}`;
  }
  const text = String(value);
  return text.includes('.') ? text : `${text}.0`;
}
