/**
 * Exit codes of the lme CLI (documented in docs/runs.md, "The results folder and exit codes"):
 * - 0 `ok`: the command did what was asked, every question finished.
 * - 1 `error`: bad input or a failure before or during the work (one line on stderr says which).
 * - 2 `failedQuestions`: a run finished and wrote every output, but some questions failed
 *   (their `error` is set in samples.jsonl); rerun them with `--resume <dir> --retry-errors`. Also a
 *   run that stopped early (--max-cost, a server without usage): it is partial, `--resume` continues it.
 * - 3 `gateFailed`: `lme gate` found a regression.
 * - 130 `interrupted`: stopped by Ctrl-C / SIGTERM; finished questions are saved (`--resume`).
 */
export const EXIT = { ok: 0, error: 1, failedQuestions: 2, gateFailed: 3, interrupted: 130 } as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
