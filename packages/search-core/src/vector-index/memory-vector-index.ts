import { dotAt, unitVector, writeUnit } from '../core/vector-math.js';
import type { Payload, PayloadFilter, PayloadValue, VectorIndex } from './vector-index.js';

export type MemoryVectorIndexOptions = {
  dimensions: number;
  /** Default `memory`. */
  id?: string;
};

const INITIAL_CAPACITY = 64;

/**
 * Exact cosine search in memory. Vectors are stored normalised in one contiguous Float32Array
 * (doubling as it grows; a delete moves the last record into the hole), so a search is one pass
 * of dot products plus a size-`limit` heap for the top hits.
 */
export function createMemoryVectorIndex(options: MemoryVectorIndexOptions): VectorIndex {
  const { dimensions } = options;
  if (!Number.isInteger(dimensions) || dimensions < 1) {
    throw new Error(`createMemoryVectorIndex: dimensions must be a positive integer, got ${dimensions}.`);
  }
  const id = options.id ?? 'memory';
  let capacity = 0;
  let count = 0;
  let data = new Float32Array(0);
  let ids: string[] = [];
  let payloads: Payload[] = [];
  let slots = new Map<string, number>();

  function grow(needed: number): void {
    if (needed <= capacity) return;
    let next = Math.max(capacity, INITIAL_CAPACITY);
    while (next < needed) next *= 2;
    const bigger = new Float32Array(next * dimensions);
    bigger.set(data.subarray(0, count * dimensions));
    data = bigger;
    capacity = next;
  }

  function checkVector(vector: Float32Array, what: string): void {
    if (vector.length !== dimensions) {
      throw new Error(`${id}: ${what} has ${vector.length} dimensions, the index has ${dimensions}.`);
    }
  }

  /** Writes `vector / |vector|` into the slot (a zero vector stays zero and scores 0). */
  function writeNormalised(slot: number, vector: Float32Array): void {
    writeUnit(data, slot * dimensions, vector, dimensions);
  }

  function removeSlot(slot: number): void {
    const last = count - 1;
    slots.delete(ids[slot]!);
    if (slot !== last) {
      data.copyWithin(slot * dimensions, last * dimensions, (last + 1) * dimensions);
      ids[slot] = ids[last]!;
      payloads[slot] = payloads[last]!;
      slots.set(ids[slot]!, slot);
    }
    ids.pop();
    payloads.pop();
    count = last;
  }

  return {
    id,

    async upsert({ records, signal }) {
      signal?.throwIfAborted();
      for (const record of records) checkVector(record.vector, `vector "${record.id}"`);
      grow(count + records.length);
      for (const record of records) {
        let slot = slots.get(record.id);
        if (slot === undefined) {
          slot = count++;
          slots.set(record.id, slot);
          ids.push(record.id);
          payloads.push({ ...record.payload });
        } else {
          payloads[slot] = { ...record.payload };
        }
        writeNormalised(slot, record.vector);
      }
    },

    async search({ vector, limit, filter, signal }) {
      signal?.throwIfAborted();
      checkVector(vector, 'the query vector');
      const k = Math.min(Math.floor(limit), count);
      if (!(k > 0)) return [];
      const matches = compileFilter(filter);
      if (matches === false) return [];
      const query = unitVector(vector);

      const heap = createTopK(k, (slot) => ids[slot]!);
      for (let slot = 0; slot < count; slot++) {
        if (matches && !matches(payloads[slot]!)) continue;
        heap.offer(dotAt(query, data, slot * dimensions, dimensions), slot);
      }
      return heap.sorted().map(({ score, slot }) => ({ id: ids[slot]!, score, payload: payloads[slot]! }));
    },

    async delete({ ids: idsToDelete, filter, signal }) {
      signal?.throwIfAborted();
      if (idsToDelete === undefined && filter === undefined) {
        throw new Error(`${id}: delete needs ids or a filter (drop() removes everything).`);
      }
      const matches = compileFilter(filter);
      if (matches === false) return;
      if (idsToDelete !== undefined) {
        for (const recordId of idsToDelete) {
          const slot = slots.get(recordId);
          if (slot !== undefined && (!matches || matches(payloads[slot]!))) removeSlot(slot);
        }
        return;
      }
      // Walk backwards: removing a slot moves the last record into it, which was already seen.
      for (let slot = count - 1; slot >= 0; slot--) {
        if (!matches || matches(payloads[slot]!)) removeSlot(slot);
      }
    },

    async drop(): Promise<void> {
      capacity = 0;
      count = 0;
      data = new Float32Array(0);
      ids = [];
      payloads = [];
      slots = new Map();
    },
  };
}

/**
 * A payload predicate: undefined when there is no filter, false when nothing can match
 * (an empty any-of list).
 */
function compileFilter(
  filter: PayloadFilter | undefined,
): ((payload: Payload) => boolean) | undefined | false {
  if (!filter) return undefined;
  const conditions: [string, PayloadValue | Set<PayloadValue>][] = [];
  for (const [key, expected] of Object.entries(filter)) {
    if (Array.isArray(expected)) {
      if (expected.length === 0) return false;
      conditions.push([key, new Set(expected as readonly PayloadValue[])]);
    } else {
      conditions.push([key, expected as PayloadValue]);
    }
  }
  if (conditions.length === 0) return undefined;
  return (payload) => {
    for (const [key, expected] of conditions) {
      const value = payload[key];
      if (value === undefined) return false;
      if (expected instanceof Set ? !expected.has(value) : value !== expected) return false;
    }
    return true;
  };
}

/**
 * Keeps the k best (score, slot) pairs in a min-heap: O(n log k) instead of sorting all n.
 * Ties are broken by id so results do not depend on storage order.
 */
function createTopK(k: number, idOf: (slot: number) => string) {
  const scores = new Float64Array(k);
  const slotsHeld = new Int32Array(k);
  let size = 0;
  /** True if a ranks below b. */
  const worse = (scoreA: number, slotA: number, scoreB: number, slotB: number) =>
    scoreA < scoreB || (scoreA === scoreB && idOf(slotA) > idOf(slotB));

  function siftDown(at: number): void {
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let smallest = at;
      if (left < size && worse(scores[left]!, slotsHeld[left]!, scores[smallest]!, slotsHeld[smallest]!))
        smallest = left;
      if (right < size && worse(scores[right]!, slotsHeld[right]!, scores[smallest]!, slotsHeld[smallest]!))
        smallest = right;
      if (smallest === at) return;
      swap(at, smallest);
      at = smallest;
    }
  }
  function swap(a: number, b: number): void {
    const score = scores[a]!;
    scores[a] = scores[b]!;
    scores[b] = score;
    const slot = slotsHeld[a]!;
    slotsHeld[a] = slotsHeld[b]!;
    slotsHeld[b] = slot;
  }

  return {
    offer(score: number, slot: number): void {
      if (size < k) {
        let at = size++;
        scores[at] = score;
        slotsHeld[at] = slot;
        while (at > 0) {
          const parent = (at - 1) >> 1;
          if (!worse(scores[at]!, slotsHeld[at]!, scores[parent]!, slotsHeld[parent]!)) break;
          swap(at, parent);
          at = parent;
        }
        return;
      }
      if (!worse(scores[0]!, slotsHeld[0]!, score, slot)) return;
      scores[0] = score;
      slotsHeld[0] = slot;
      siftDown(0);
    },
    sorted(): { score: number; slot: number }[] {
      const out: { score: number; slot: number }[] = [];
      for (let at = 0; at < size; at++) out.push({ score: scores[at]!, slot: slotsHeld[at]! });
      return out.sort((a, b) =>
        worse(a.score, a.slot, b.score, b.slot) ? 1 : worse(b.score, b.slot, a.score, a.slot) ? -1 : 0,
      );
    },
  };
}
