/** The vector arithmetic the retrievers, stages and indexes share. */

/** Writes `vector / |vector|` into `target` at `offset` (a zero vector stays zero). */
export function writeUnit(
  target: Float32Array,
  offset: number,
  vector: ArrayLike<number>,
  dimensions: number,
): void {
  let sum = 0;
  for (let d = 0; d < dimensions; d++) sum += vector[d]! * vector[d]!;
  const scale = sum > 0 ? 1 / Math.sqrt(sum) : 0;
  for (let d = 0; d < dimensions; d++) target[offset + d] = vector[d]! * scale;
}

/** A new unit vector in the direction of `vector` (all zeros for a zero vector). */
export function unitVector(vector: ArrayLike<number>): Float32Array {
  const unit = new Float32Array(vector.length);
  writeUnit(unit, 0, vector, vector.length);
  return unit;
}

/** The dot product over the shorter length. */
export function dot(left: ArrayLike<number>, right: ArrayLike<number>): number {
  const size = Math.min(left.length, right.length);
  let sum = 0;
  for (let index = 0; index < size; index++) sum += left[index]! * right[index]!;
  return sum;
}

/** Dot product of `query` with the vector stored at `base` of `data`, four lanes at a time. */
export function dotAt(query: Float32Array, data: Float32Array, base: number, dimensions: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let d = 0;
  for (; d + 3 < dimensions; d += 4) {
    s0 += query[d]! * data[base + d]!;
    s1 += query[d + 1]! * data[base + d + 1]!;
    s2 += query[d + 2]! * data[base + d + 2]!;
    s3 += query[d + 3]! * data[base + d + 3]!;
  }
  for (; d < dimensions; d++) s0 += query[d]! * data[base + d]!;
  return s0 + s1 + (s2 + s3);
}

/** Cosine similarity; 0 when either vector is missing, empty or all zeros. */
export function cosineSimilarity(left: Float32Array | undefined, right: Float32Array | undefined): number {
  if (!left || !right) return 0;
  const size = Math.min(left.length, right.length);
  let product = 0;
  let leftNorm = 0;
  let rightNorm = 0;
  for (let index = 0; index < size; index++) {
    product += left[index]! * right[index]!;
    leftNorm += left[index]! * left[index]!;
    rightNorm += right[index]! * right[index]!;
  }
  return leftNorm > 0 && rightNorm > 0 ? product / Math.sqrt(leftNorm * rightNorm) : 0;
}

/** The normalised mean of unit vectors (a session's direction in embedding space). */
export function centroid(vectors: readonly Float32Array[], dimensions: number): Float32Array {
  const mean = new Float32Array(dimensions);
  for (const vector of vectors)
    for (let index = 0; index < dimensions; index++) mean[index]! += vector[index]!;
  let norm = 0;
  for (let index = 0; index < dimensions; index++) norm += mean[index]! * mean[index]!;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let index = 0; index < dimensions; index++) mean[index]! *= scale;
  return mean;
}
