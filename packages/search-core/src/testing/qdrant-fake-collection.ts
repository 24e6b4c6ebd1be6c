/** A point of the fake Qdrant: its vector (normalised on upsert) and payload. */
export type FakePoint = { vector: number[]; payload: Record<string, unknown> };
/** A collection of the fake Qdrant: its vector size, points by id and payload indexes. */
export type FakeCollection = {
  size: number;
  points: Map<string, FakePoint>;
  indexes: Record<string, unknown>;
};

function matches(payload: Record<string, unknown>, id: string, condition: Record<string, unknown>): boolean {
  if ('has_id' in condition) return (condition['has_id'] as string[]).includes(id);
  if ('must' in condition || 'should' in condition) return matchesFilter(payload, id, condition);
  const value = payload[condition['key'] as string];
  const match = condition['match'] as { value?: unknown; any?: unknown[] } | undefined;
  if (match && 'value' in match) return value === match.value;
  if (match?.any) return match.any.includes(value);
  const range = condition['range'] as { gte: number; lte: number } | undefined;
  if (range) return typeof value === 'number' && value >= range.gte && value <= range.lte;
  throw new Error(`fake qdrant: unsupported condition ${JSON.stringify(condition)}`);
}

/** Qdrant's filter semantics: every `must` condition and, when there are any, one `should` condition. */
export function matchesFilter(
  payload: Record<string, unknown>,
  id: string,
  filter: Record<string, unknown> | undefined,
) {
  if (!filter) return true;
  const list = (value: unknown) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
  const must = list(filter['must']);
  const should = list(filter['should']);
  return (
    must.every((condition) => matches(payload, id, condition)) &&
    (should.length === 0 || should.some((condition) => matches(payload, id, condition)))
  );
}

/** A vector scaled to length 1 (cosine distance on normalised vectors, as Qdrant stores them). */
export const normalise = (vector: number[]) => {
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0)) || 1;
  return vector.map((value) => value / norm);
};

/** Upsert as Qdrant does: the whole point replaced; an error when a vector has the wrong size. */
export function store(
  collection: FakeCollection,
  points: readonly { id: string; vector: number[]; payload?: Record<string, unknown> }[],
): string | undefined {
  for (const point of points) {
    if (point.vector.length !== collection.size)
      return `Wrong input: Vector dimension error: expected dim: ${collection.size}, got ${point.vector.length}`;
    collection.points.set(point.id, { vector: normalise(point.vector), payload: point.payload ?? {} });
  }
  return undefined;
}
