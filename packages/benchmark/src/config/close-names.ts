/** Edit distance (insertions, deletions, substitutions) between two strings. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The known names nearest to `name`, for "did you mean" messages: those within a few edits (or
 * containing it), nearest first, at most `limit`.
 */
export function closeNames(name: string, known: Iterable<string>, limit = 5): string[] {
  const wanted = name.toLowerCase();
  const scored = [...new Set(known)]
    .map((candidate) => ({ candidate, distance: editDistance(wanted, candidate.toLowerCase()) }))
    .filter(
      ({ candidate, distance }) =>
        distance <= Math.max(2, Math.floor(wanted.length / 3)) ||
        (wanted.length >= 3 && candidate.toLowerCase().includes(wanted)),
    );
  scored.sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate));
  return scored.slice(0, limit).map(({ candidate }) => candidate);
}

/** `; close names: a, b` or `; known names: a, b, …` for an error sentence about an unknown name. */
export function suggestNames(name: string, known: Iterable<string>): string {
  const close = closeNames(name, known);
  if (close.length > 0) return `close names: ${close.join(', ')}`;
  const all = [...new Set(known)].sort();
  if (all.length === 0) return 'none are known';
  return `known names: ${all.slice(0, 12).join(', ')}${all.length > 12 ? ', …' : ''}`;
}
