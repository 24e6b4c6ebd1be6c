import type { Judge } from './judge.js';
import {
  JUDGE_PROBES,
  PROBE_KINDS,
  type ProbeKind,
  type ProbeQuestion,
  SOUND_JUDGE_ACCEPTS,
} from './judge-probe-set.js';

/** One probe answer as the judge graded it. */
export type ProbeGrade = {
  question_id: string;
  kind: ProbeKind;
  /** true accepted, false rejected, null a judge error (unreadable reply, tie). */
  label: boolean | null;
  /** Why the call failed or the label is null. */
  error?: string;
};

/** Per kind: probes, accepted, rejected, judge errors, and the acceptance rate over graded ones. */
export type ProbeKindResult = {
  kind: ProbeKind;
  probes: number;
  accepted: number;
  rejected: number;
  errors: number;
  /** accepted / (accepted + rejected); null when none was graded. */
  acceptance: number | null;
  /** What a sound judge does with this kind. */
  sound: 'accept' | 'reject';
};

export type JudgeProbeResult = {
  judge: string;
  rubric: string;
  kinds: ProbeKindResult[];
  grades: ProbeGrade[];
};

/** The probe set of a rubric; an unknown rubric fails listing the known ones. */
export function probesFor(rubric: string): readonly ProbeQuestion[] {
  if (!Object.hasOwn(JUDGE_PROBES, rubric)) {
    throw new Error(
      `No judge probes for rubric "${rubric}"; known: ${Object.keys(JUDGE_PROBES).join(', ')}.`,
    );
  }
  return JUDGE_PROBES[rubric]!;
}

/**
 * Runs every probe answer of the rubric's probe set through `judge` (one call each, in order) and
 * counts how often each kind is accepted. A failed call is a judge error of that probe, never a
 * throw, so one bad reply does not hide the rest.
 */
export async function runJudgeProbe(options: {
  judge: Judge;
  rubric: string;
  signal?: AbortSignal;
}): Promise<JudgeProbeResult> {
  const { judge, rubric, signal } = options;
  const grades: ProbeGrade[] = [];
  for (const probe of probesFor(rubric)) {
    for (const kind of PROBE_KINDS) {
      try {
        const result = await judge.grade({
          record: probe.record,
          hypothesis: probe.answers[kind],
          ...(signal ? { signal } : {}),
        });
        grades.push({
          question_id: probe.record.question_id,
          kind,
          // A graded judge accepts an answer it gives full credit.
          label: result.label ?? (result.score === null ? null : result.score === 1),
          ...(result.error ? { error: result.error } : {}),
        });
      } catch (error) {
        if (signal?.aborted) throw error;
        grades.push({
          question_id: probe.record.question_id,
          kind,
          label: null,
          error: (error as Error).message,
        });
      }
    }
  }
  const kinds = PROBE_KINDS.map((kind): ProbeKindResult => {
    const ofKind = grades.filter((grade) => grade.kind === kind);
    const accepted = ofKind.filter((grade) => grade.label === true).length;
    const rejected = ofKind.filter((grade) => grade.label === false).length;
    return {
      kind,
      probes: ofKind.length,
      accepted,
      rejected,
      errors: ofKind.length - accepted - rejected,
      acceptance: accepted + rejected === 0 ? null : accepted / (accepted + rejected),
      sound: SOUND_JUDGE_ACCEPTS[kind] ? 'accept' : 'reject',
    };
  });
  return { judge: judge.id, rubric, kinds, grades };
}

const DESCRIPTIONS: Record<ProbeKind, string> = {
  vague: 'vague but on topic',
  wrong: 'specific but wrong',
  verbose: 'right but verbose',
  correct: 'right and short: the control',
};

/** The acceptance table as `lme judge-probe` prints it. */
export function renderJudgeProbe(result: JudgeProbeResult): string {
  const rows = result.kinds.map((kind) => {
    const rate = kind.acceptance === null ? '-' : `${(kind.acceptance * 100).toFixed(1)}%`;
    return `| ${`${kind.kind} (${DESCRIPTIONS[kind.kind]})`.padEnd(38)} | ${String(kind.probes).padStart(6)} | ${String(kind.accepted).padStart(8)} | ${String(kind.errors).padStart(12)} | ${rate.padStart(10)} | ${kind.sound.padStart(11)} |`;
  });
  const lenient = result.kinds.filter((kind) => kind.sound === 'reject' && (kind.acceptance ?? 0) > 0);
  const strict = result.kinds.filter(
    (kind) => kind.sound === 'accept' && kind.acceptance !== null && kind.acceptance < 1,
  );
  const verdict = [
    lenient.length > 0
      ? `accepts answers a sound judge rejects (${lenient.map((kind) => kind.kind).join(', ')})`
      : 'rejects every vague and wrong probe',
    strict.length > 0
      ? `rejects right answers (${strict.map((kind) => kind.kind).join(', ')})`
      : 'accepts every right probe',
  ].join('; ');
  return [
    `Judge probe · ${result.judge} · rubric ${result.rubric} · ${result.grades.length} probe answers over ${result.grades.length / result.kinds.length} real questions`,
    '',
    `| ${'kind'.padEnd(38)} | probes | accepted | judge errors | acceptance | sound judge |`,
    `|${'-'.repeat(40)}|-------:|---------:|-------------:|-----------:|------------:|`,
    ...rows,
    '',
    `This judge ${verdict}.`,
    '',
  ].join('\n');
}
