/**
 * Holm–Bonferroni adjusted p-values (step-down): sorted ascending, the i-th smallest (0-based) is
 * multiplied by m - i, made non-decreasing and capped at 1; returned in the input order. A test is
 * significant at level α family-wise when its adjusted p-value is below α.
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((pValue, index) => ({ pValue, index })).sort((a, b) => a.pValue - b.pValue);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach(({ pValue, index }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * pValue));
    adjusted[index] = running;
  });
  return adjusted;
}
