import type { Sample } from '../results/sample.js';
import type { Summary } from '../results/summary.js';
import type { Corpus, Granularity } from './build-corpus.js';
import type { LongMemEvalRecord } from './longmemeval-record.js';

/**
 * A file of a benchmark, loaded: every question as the common record (LongMemEval's shape; a
 * benchmark maps its own onto it, as LoCoMo does with `locomo_evidence`, and a multiple-choice one
 * would add its `choices`).
 */
export type LoadedBenchmarkFile = {
  path: string;
  /** SHA-256 of the uncompressed JSON. */
  sha256: string;
  records: LongMemEvalRecord[];
  /** Problems that did not stop the load (LoCoMo evidence naming no turn). */
  warnings: string[];
};

export type BenchmarkLoadOptions = {
  /** A session id twice in one haystack: keep both (official) or the first. */
  duplicateSessions?: 'keep' | 'first';
  /** Called once per validated record, in file order. */
  onRecord?: (record: LongMemEvalRecord, position: number) => void;
  /** Called with each problem that does not stop the load. */
  onWarning?: (message: string) => void;
};

/** What a benchmark's own retrieval figures read of one graded question. */
export type BenchmarkRetrievalOptions = {
  record: LongMemEvalRecord;
  corpus: Corpus;
  /** Document indices in rank order. */
  ranking: readonly number[];
  /** Haystack session indices in rank order, when the retriever ranks sessions itself. */
  sessionRanking?: readonly number[];
  granularity: Granularity;
  /** Ids of the documents packed into the reader's context, when a context budget is set. */
  packed?: readonly string[];
};

/**
 * A benchmark: how its files are recognised and read, which questions are its own, and what it
 * measures beyond the shared retrieval metrics (recall and NDCG at session and turn level, which
 * every benchmark gets from its gold). Everything but the first five fields is optional: a
 * benchmark without figures of its own leaves them out. A new benchmark is a folder
 * `benchmarks/<name>/` with one of these and a line in `BENCHMARKS` (`benchmark-registry.ts`); a
 * multiple-choice benchmark such as MemBench maps its choices into the record and scores an answer
 * with `answerMetrics` (the choice matched), with no judge needed.
 */
export type Benchmark = {
  readonly name: string;
  readonly description: string;
  /**
   * Whether parsed JSON is this benchmark's format: a whole file that is one object, or an array
   * holding a file's first record. The registry asks each benchmark in turn; the default one
   * (LongMemEval, whose loader then validates the file) takes what no other recognises.
   */
  recognizes(value: unknown): boolean;
  /** Reads a whole file (`.json` or `.json.gz`); every error starts with the path. */
  load(path: string, options?: BenchmarkLoadOptions): Promise<LoadedBenchmarkFile>;
  /** Whether a FOLDER is this benchmark's dataset (BEAM: a tier of conversation folders); `load` then reads the folder. */
  recognizesFolder?(path: string): boolean;
  /** Why `--convention official` does not apply to it, one sentence; absent when it does. */
  readonly officialConventionRefusal?: string;
  /** Its question types, in report order; a record is the benchmark's when its type is one of them. */
  readonly questionTypes: readonly string[];
  /** The judge rubric (a key of `judgeRubrics`) that grades its answers as its papers do. */
  readonly judgeRubric?: string;
  /** The reader prompt (a key of `readerPrompts`) of its published setting. */
  readonly readerPrompt?: string;
  /** Retrieval figures of its own for one question (LoCoMo: the official recall_acc). */
  retrievalMetrics?(options: BenchmarkRetrievalOptions): Record<string, number>;
  /** Answer figures computed from the hypothesis alone, no judge (LoCoMo: the official token F1). */
  answerMetrics?(record: LongMemEvalRecord, hypothesis: string): Record<string, number>;
  /**
   * Its block of summary.json (LoCoMo: `locomo`), from every sample of the run; undefined when no
   * sample is its own. `qa` names the judge when QA ran.
   */
  aggregate?(
    samples: readonly Sample[],
    qa?: { judge: string; judge_model: string },
  ): Partial<Summary> | undefined;
  /** Tables appended to report.md after the per-category table; '' when it has none for this run. */
  tables?(summary: Summary, samples: readonly Sample[]): string;
};
