import type { MemoryDocument } from '../core/retriever.js';

/**
 * Scores a turn with its neighbour turns (issue 19): short casual dialog turns ("haha, same!")
 * carry little meaning alone, so a turn's score becomes (1 − weight) × its own score + weight ×
 * the mean score of the turns just before and after it in its session (by `turnIndex`, among the
 * indexed documents). Documents without a turn index (whole sessions) keep their score.
 */
export function smoothWithNeighbours(
  scores: ArrayLike<number>,
  documents: readonly Pick<MemoryDocument, 'sessionId' | 'turnIndex'>[],
  weight: number,
): Float64Array {
  if (scores.length !== documents.length)
    throw new Error(`neighbour turns: ${scores.length} scores for ${documents.length} documents`);
  const smoothed = Float64Array.from(scores as ArrayLike<number>);
  if (weight === 0) return smoothed;
  const position = new Map<string, number>();
  documents.forEach((document, index) => {
    if (document.turnIndex !== undefined) position.set(`${document.sessionId}\0${document.turnIndex}`, index);
  });
  documents.forEach((document, index) => {
    if (document.turnIndex === undefined) return;
    const neighbours = [document.turnIndex - 1, document.turnIndex + 1]
      .map((turn) => position.get(`${document.sessionId}\0${turn}`))
      .filter((neighbour): neighbour is number => neighbour !== undefined);
    if (neighbours.length === 0) return;
    const mean = neighbours.reduce((sum, neighbour) => sum + scores[neighbour]!, 0) / neighbours.length;
    smoothed[index] = (1 - weight) * scores[index]! + weight * mean;
  });
  return smoothed;
}
