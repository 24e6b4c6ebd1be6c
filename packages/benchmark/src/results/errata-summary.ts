/** The `errata` block of summary.json, as a type the layers above share. */

/** The best score reachable when the published label of `wrong` of `n` questions is known to be wrong. */
export type Ceiling = { value: number; wrong_labels: number; n: number };

/** The `errata` block of summary.json: which errata, applied or only known, and what they touch in this run. */
export type ErrataSummary = {
  /** `name@version`. */
  errata: string;
  /** true: the run's figures are corrected (`--errata`); false: official figures, errata only known. */
  applied: boolean;
  /** SHA-256 of the errata file's bytes. */
  file_sha256: string;
  /** Entries in the file. */
  entries: number;
  /** Questions of this run that an entry names. */
  questions_touched: number;
  /** Of those, the ones left out of every mean (when applied) or that would be. */
  excluded: number;
  /** Questions of this run per kind of entry. */
  by_kind: Partial<Record<string, number>>;
  /**
   * Under the published labels (only when not applied): the best `qa.accuracy` reachable over the
   * run's finished questions, and a benchmark's own ceilings (`Benchmark.errataCeilings`, LoCoMo's
   * judge accuracy over categories 1-4), when some published answers are known to be wrong. A
   * perfect reader is scored wrong on those.
   */
  ceiling?: { qa_accuracy: Ceiling; [benchmarkCeiling: string]: Ceiling | undefined };
};

/** A sample's errata mark (samples.jsonl `errata`). */
export type SampleErrata = {
  /** The errata file and version, e.g. `longmemeval-s@1`. */
  errata: string;
  /** Kinds of errata-schema.ts (`ErratumKind`). */
  kinds: string[];
  fields: string[];
  /** Left out of every mean. */
  excluded: boolean;
};
