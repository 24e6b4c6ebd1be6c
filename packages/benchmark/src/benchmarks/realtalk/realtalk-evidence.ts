/**
 * REALTALK's evidence lists are hand-typed: besides plain dialog ids (`D3:7`) the published chats
 * hold `D5:3.`, `D5:12;D5:16`, `D13:4. D14:4`, `D 2:18`, `23:29`, `D17;39`, ranges such as
 * `D12:3-D12:5`, and ids of turns the cleaning removed. This reads every id a reference names.
 */

/** One id or range a reference names: session and first and last turn number (equal for one id). */
export type EvidenceSpan = { session: number; from: number; to: number };

const SPAN = /D?\s*(\d+)\s*[:;]\s*(\d+)(?:\s*-\s*D?\s*(\d+)\s*:\s*(\d+))?/gi;

/** The ids and ranges a reference names; a range over two sessions keeps its two ends. */
export function evidenceSpans(reference: string): EvidenceSpan[] {
  const spans: EvidenceSpan[] = [];
  for (const match of reference.matchAll(SPAN)) {
    const session = Number(match[1]);
    const from = Number(match[2]);
    if (match[3] === undefined) {
      spans.push({ session, from, to: from });
      continue;
    }
    const endSession = Number(match[3]);
    const to = Number(match[4]);
    if (endSession === session && to >= from) spans.push({ session, from, to });
    else spans.push({ session, from, to: from }, { session: endSession, from: to, to });
  }
  return spans;
}

/** Whether a dialog id falls in a span (`D12:4` in `D12:3-D12:5`). */
export function spanHolds(span: EvidenceSpan, diaId: string): boolean {
  const match = /^D(\d+):(\d+)$/.exec(diaId);
  if (!match) return false;
  const turn = Number(match[2]);
  return Number(match[1]) === span.session && turn >= span.from && turn <= span.to;
}
