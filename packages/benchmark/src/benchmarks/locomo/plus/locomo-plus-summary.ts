/*
 * The score summary of LoCoMo-Plus's judge, as `llm_as_judge.py` `_compute_summary` writes
 * judge_summary.json (xjtuleeyf/Locomo-Plus, commit 143cdeb649231612abc3304793bb36a122f94229):
 * the sum of `judge_score` over all records and per category (categories sorted by name, as
 * Python sorts strings: "Cognitive" before the lower-case ones), averages over record counts,
 * totals rounded to 2 places and averages to 4 with Python's `round` (half to even on the exact
 * binary value).
 */

export type LocomoPlusJudgedRecord = { category?: string | null; judge_score?: number | string | null };

export type LocomoPlusSummary = {
  total_score: number;
  total_samples: number;
  max_possible: number;
  overall_avg: number;
  by_category: Record<string, { score: number; count: number; avg: number }>;
};

/** `_compute_summary(results)`. */
export function computeLocomoPlusSummary(results: readonly LocomoPlusJudgedRecord[]): LocomoPlusSummary {
  let total = 0;
  const byCategory = new Map<string, { score: number; count: number }>();
  for (const record of results) {
    const score = Number(record.judge_score ?? 0);
    total += score;
    const category = record.category || 'default';
    const entry = byCategory.get(category) ?? { score: 0, count: 0 };
    entry.score += score;
    entry.count += 1;
    byCategory.set(category, entry);
  }
  const summary: LocomoPlusSummary = {
    total_score: pythonRound(total, 2),
    total_samples: results.length,
    max_possible: results.length,
    overall_avg: results.length > 0 ? pythonRound(total / results.length, 4) : 0,
    by_category: {},
  };
  const names = [...byCategory.keys()].sort((left, right) => (left < right ? -1 : left > right ? 1 : 0));
  for (const name of names) {
    const { score, count } = byCategory.get(name)!;
    summary.by_category[name] = {
      score: pythonRound(score, 2),
      count,
      avg: count > 0 ? pythonRound(score / count, 4) : 0,
    };
  }
  return summary;
}

/**
 * `json.dumps(summary, ensure_ascii=False, indent=2)` of the summary, floats as Python writes them
 * (`2240.0`, `0.3586`): byte for byte what the official script writes to judge_summary.json.
 */
export function renderLocomoPlusSummary(summary: LocomoPlusSummary): string {
  const float = (value: number) => (Number.isInteger(value) ? `${value}.0` : String(value));
  const lines = [
    '{',
    `  "total_score": ${float(summary.total_score)},`,
    `  "total_samples": ${summary.total_samples},`,
    `  "max_possible": ${summary.max_possible},`,
    `  "overall_avg": ${float(summary.overall_avg)},`,
  ];
  const entries = Object.entries(summary.by_category);
  if (entries.length === 0) lines.push('  "by_category": {}');
  else {
    lines.push('  "by_category": {');
    entries.forEach(([name, entry], index) => {
      lines.push(
        `    ${JSON.stringify(name)}: {`,
        `      "score": ${float(entry.score)},`,
        `      "count": ${entry.count},`,
        `      "avg": ${float(entry.avg)}`,
        `    }${index < entries.length - 1 ? ',' : ''}`,
      );
    });
    lines.push('  }');
  }
  lines.push('}');
  return lines.join('\n');
}

/**
 * Python's `round(x, digits)` for a float: the nearest multiple of 10^-digits to the exact binary
 * value, a tie to the even one (JavaScript's toFixed breaks ties upward).
 */
export function pythonRound(value: number, digits: number): number {
  const fixed = value.toFixed(digits);
  const scaled = value * 10 ** digits;
  const floor = Math.floor(scaled);
  // A tie exists only when the exact value sits halfway: check it on the decimal expansion.
  const exact = value.toFixed(digits + 30).replace(/0+$/, '');
  const halfway = new RegExp(`\\.\\d{${digits}}5$`).test(exact);
  if (!halfway) return Number(fixed);
  const even = floor % 2 === 0 ? floor : floor + 1;
  return Number((even / 10 ** digits).toFixed(digits));
}
