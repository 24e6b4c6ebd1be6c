/**
 * The part of a vitest test case the summary reads (vitest/node's `TestCase`), so tests can hand
 * it plain objects.
 */
export type SkippableTest = {
  readonly fullName: string;
  readonly module: { readonly relativeModuleId: string };
  readonly parent: { readonly type: string; readonly fullName?: string };
  readonly options: { readonly mode: string };
  result(): { readonly state: string; readonly note?: string | undefined };
};

/**
 * The lines `pnpm test` ends with when tests were skipped: how many, then one line per group (a
 * file's suite, or a file) with its count and why, as the suite's title or `context.skip(note)`
 * says it (`mem0 bridge (skipped: … run lme bridges install mem0)`, `pandas is not installed …`),
 * so a newcomer sees which and how to enable them. Empty when none was skipped.
 */
export function skippedTestsSummary(tests: Iterable<SkippableTest>): string {
  const groups = new Map<string, { count: number; notes: Set<string> }>();
  let total = 0;
  for (const test of tests) {
    const result = test.result();
    if (result.state !== 'skipped' || test.options.mode === 'todo') continue;
    total++;
    const where =
      test.parent.type === 'suite' && test.parent.fullName
        ? `${test.module.relativeModuleId} > ${test.parent.fullName}`
        : test.module.relativeModuleId;
    const group = groups.get(where) ?? { count: 0, notes: new Set<string>() };
    group.count++;
    if (result.note) group.notes.add(result.note);
    groups.set(where, group);
  }
  if (total === 0) return '';
  const lines = [...groups.entries()]
    .sort(([left], [right]) => left.localeCompare(right))
    .map(
      ([where, { count, notes }]) =>
        `  ${count} in ${where}${notes.size > 0 ? `: ${[...notes].join('; ')}` : ''}`,
    );
  return `\n${total} skipped ${total === 1 ? 'test' : 'tests'} (each group says what it needs, such as an installed bridge, pandas, Chromium or the shared data beside the repository):\n${lines.join('\n')}\n`;
}

/** A vitest reporter that prints `skippedTestsSummary` after the run (not when a name filter skipped the rest). */
export class SkippedTestsReporter {
  private filtered = false;

  onInit(vitest: { config: { testNamePattern?: unknown } }): void {
    this.filtered = vitest.config.testNamePattern !== undefined;
  }

  onTestRunEnd(modules: ReadonlyArray<{ children: { allTests(): Iterable<SkippableTest> } }>): void {
    if (this.filtered) return;
    const summary = skippedTestsSummary(modules.flatMap((module) => [...module.children.allTests()]));
    if (summary) process.stdout.write(summary);
  }
}
