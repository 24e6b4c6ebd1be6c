export {
  type BenchmarkConventions,
  type KeyedGold,
  RECORD_EVIDENCE_GOLD,
  type RecordEvidenceGold,
} from './convention-gold.js';

import type { DatasetSources } from '../dataset/dataset-sources.js';
import type { Sample } from '../results/sample.js';
import type { Summary } from '../results/summary.js';
import type { BenchmarkConventions } from './convention-gold.js';
import type { Convention, Corpus, Granularity } from './corpus.js';
import type { JudgeRubricDefinition } from './judge-rubric.js';
import type { LongMemEvalRecord } from './longmemeval-record.js';
import type { ReaderPromptDefinition } from './reader-prompt.js';

/**
 * A dataset of a benchmark, loaded: every question as the common record (LongMemEval's shape; a
 * benchmark maps its own onto it, as LoCoMo does with `locomo_evidence`, and a multiple-choice one
 * would add its `choices`). `path` is a file or, for a benchmark whose dataset is a folder, the folder.
 */
/** One way of writing a turn's text for the index (`Benchmark.turnForms`). */
export type TurnForm = {
  readonly description: string;
  /** The indexed text of a turn, from its content as loaded and its role (`user`, `assistant`). */
  write(content: string, role: string): string;
};

export type LoadedBenchmarkFile = {
  path: string;
  /** SHA-256 of the dataset's text (the uncompressed JSON, or the benchmark's own digest of a folder). */
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

/** A dataset read record by record, so memory holds one record at a time (LongMemEval M is 2.7 GB). */
export type BenchmarkStream = {
  records: AsyncIterable<LongMemEvalRecord>;
  /** SHA-256 of the dataset's text; known once every record was read. */
  sha256(): string;
  /** Share of the dataset read so far, 0 to 1. */
  fractionRead(): number;
};

/**
 * Run-config values of a benchmark's published setting, applied as a layer below presets, the
 * environment and flags (defaults < benchmark < preset < environment < flags) and recorded in
 * config.json (`benchmarkDefaults`) when they decided a value.
 */
export type BenchmarkDefaults = {
  /** Must be one of `conventions`. */
  readonly convention: Convention;
  /** A judge rubric name (one of any benchmark's `judges`). */
  readonly judge: string;
  /** A reader prompt name (one of any benchmark's `readerPrompts`). */
  readonly readerPrompt: string;
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
 * How a file of configs/datasets.json checks out in the data directory:
 * - `verified`: the SHA-256 is the published file's;
 * - `known-copy`: it is a listed rebuilt copy (same records or a documented subset, other bytes);
 * - `unverified`: the config knows no checksum for this file;
 * - `mismatch`: neither (a changed, corrupt or unknown file);
 * - `missing`: no file in the data directory.
 */
export type DatasetVerifyStatus = 'verified' | 'known-copy' | 'unverified' | 'mismatch' | 'missing';

export type DatasetVerifyResult = {
  dataset: string;
  status: DatasetVerifyStatus;
  path?: string;
  sha256?: string;
  /** One sentence for the user: what matched, or what was expected. */
  detail: string;
};

/**
 * What the shared reader and judge (qa/) take from a benchmark's official scripts: history
 * rendering, the context budget, Chain-of-Note, the judge model and reply reading. The default
 * benchmark's are used (`sharedQaSettings()` in the registry); LongMemEval's are its official
 * run_generation.py and evaluate_qa.py values.
 */
export type BenchmarkQaSettings = {
  /** One session in the history. Fields: 1-based index, date, content. */
  readonly historySessionTemplate: string;
  /** One turn in `nl` history format. Fields: role, content. */
  readonly historyNlTurnTemplate: string;
  /** What precedes a `json` history chunk. */
  readonly historyJsonPrefix: string;
  /** Context lengths in tokens of the models it names. */
  readonly modelMaxLength: Readonly<Record<string, number>>;
  /** The reader's `max_tokens` when neither the flag nor the prompt sets one. */
  readonly readerMaxTokens: number;
  /** Tokens kept off the history besides the answer's. */
  readonly promptReserveTokens: number;
  /** Chain-of-Note note prompt. Fields: session date, session content, question date, question. */
  readonly noteTemplate: string;
  /** Chain-of-Note note call's `max_tokens`. */
  readonly noteMaxTokens: number;
  /** Sessions kept by `full-history-session`. */
  readonly fullHistoryTopK: number;
  /** The judge model when none is given. */
  readonly judgeModel: string;
  /** The judge call's `max_tokens` when the rubric sets none. */
  readonly judgeMaxTokens: number;
  /** A judge reply read as yes (true), no (false) or neither (null), for rubrics without `parse`. */
  parseJudgeReply(reply: string): boolean | null;
};

/**
 * A benchmark: how its datasets are recognised and read, which questions are its own, how each
 * convention decides gold, its published setting (reader prompt, judge, convention), its judges and
 * reader prompts, and what it measures beyond the shared retrieval metrics (recall and NDCG at
 * session and turn level, which every benchmark gets from its gold).
 *
 * A new benchmark is a folder `benchmarks/<name>/` holding one of these and a line in
 * `BENCHMARKS` (`benchmark-registry.ts`); nothing outside the folder names it (`pnpm lint` checks).
 */
export type Benchmark = {
  /** Its registry key. */
  readonly name: string;
  readonly description: string;
  /** What its dataset looks like, for the error on a file no benchmark reads ("a JSON array of … records"). */
  readonly formatHint: string;
  /**
   * Whether a path is this benchmark's dataset without parsing it as JSON: a folder (BEAM's
   * `chats/<tier>/<n>/…`) or a file it knows by name. Asked first, before `recognizes`.
   */
  recognizesPath?(path: string): boolean | Promise<boolean>;
  /**
   * For a dataset that is a folder: the files its loader reads, relative to it with `/`. A run's
   * dataset checksum hashes these and nothing else under the folder (no link walked, no unrelated
   * file read). Without it, a folder is hashed file by file, links not followed.
   */
  datasetFiles?(path: string): string[];
  /**
   * Whether parsed JSON is this benchmark's format: a whole file that is one object, or an array
   * holding a file's first record. The registry asks each benchmark in turn; the default one
   * (the last to be asked) takes what no other recognises.
   */
  recognizes(value: unknown): boolean;
  /** Reads a whole dataset (a `.json`/`.json.gz` file, or the folder `recognizesPath` took); errors start with the path. */
  load(path: string, options?: BenchmarkLoadOptions): Promise<LoadedBenchmarkFile>;
  /** Reads a dataset record by record; without it the dataset is loaded whole. Records validated as read. */
  stream?(path: string, options?: BenchmarkLoadOptions): BenchmarkStream;
  /**
   * Short `--dataset` names it resolves inside the data directory (LongMemEval: oracle, s, m,
   * sample), unique across benchmarks; any other value is a path.
   */
  readonly datasets?: {
    readonly names: readonly string[];
    resolve(name: string, dataDir: string): string;
  };
  /**
   * `lme datasets download` names it fetches itself (BEAM: `beam-100k` from raw GitHub at a pinned
   * commit), unique across benchmarks; `download` returns the line to print. LongMemEval's files go
   * through configs/datasets.json instead.
   */
  readonly downloads?: {
    readonly names: readonly string[];
    download(name: string, options: { dataDir: string; baseUrl?: string }): Promise<string>;
  };
  /**
   * Datasets `lme datasets list` shows besides configs/datasets.json's files, downloaded or not:
   * what each is, where it is (or goes) in the data directory, and how to get it.
   */
  readonly catalog?: readonly DatasetCatalogEntry[];
  /**
   * The published files configs/datasets.json lists (LongMemEval: oracle, s, m) and its committed
   * sample, for `lme datasets list|verify|info` (`publishedDatasetFiles()` in the registry).
   */
  readonly publishedFiles?: {
    /** The committed sample's path (`--dataset sample`), described without a checksum. */
    readonly committedSample: string;
    /** Checks the named files in the data directory against their SHA-256 in `sources`. */
    verify(
      sources: DatasetSources,
      names: readonly string[],
      dataDir: string,
    ): Promise<DatasetVerifyResult[]>;
  };
  /** Its question types, in report order; a record is the benchmark's when its type is one of them. */
  readonly questionTypes: readonly string[];
  /**
   * Lines `lme datasets` prints after its per-type table (LoCoMo: questions per category), from
   * the table's rows; '' or absent for none.
   */
  statisticsNote?(rows: readonly { label: string; questions: number }[]): string;
  /**
   * Named ways to write one of its turns as indexed text (`--turn-form <name>`), for a recipe that
   * indexes turns as another system's script wrote them (LoCoMo's `said`: MemPalace's
   * `<speaker> said, "<text>"`). Without `--turn-form` a turn is indexed as the loader holds it.
   */
  readonly turnForms?: Readonly<Record<string, TurnForm>>;
  /** The conventions it grades under and the gold of each; `--convention` naming another is refused. */
  readonly conventions: BenchmarkConventions;
  /** Its published setting, a config layer below presets, environment and flags. */
  readonly defaults: BenchmarkDefaults;
  /** Judge rubrics it brings, by `--judge` name (names unique across benchmarks). */
  readonly judges?: Readonly<Record<string, JudgeRubricDefinition>>;
  /** Reader prompts it brings, by `--reader-prompt` name (names unique across benchmarks). */
  readonly readerPrompts?: Readonly<Record<string, ReaderPromptDefinition>>;
  /** The shared reader's and judge's settings from its official scripts; the default benchmark must have them. */
  readonly qaSettings?: BenchmarkQaSettings;
  /** Names of its own per-question metrics (`qa.locomo_f1`) that compare may test, higher better. */
  readonly comparedMetrics?: readonly string[];
  /**
   * Errata ceilings of its own beside `qa_accuracy`, by summary.json key (LoCoMo:
   * `locomo_judge_accuracy`, over the categories its judge grades): the best accuracy reachable
   * under the published labels over the finished questions `counts` takes, and its line's label.
   */
  readonly errataCeilings?: Readonly<
    Record<string, { readonly label: string; counts(sample: { question_type: string }): boolean }>
  >;
  /**
   * What errata read and correct of its records beyond the common fields (LoCoMo: `evidence`, its
   * dialog ids, and `category`): the published values an entry is checked against, and the record
   * with corrected evidence (errata/apply-errata.ts asks the run's benchmark).
   */
  readonly errata?: {
    evidence(record: LongMemEvalRecord): unknown;
    category(record: LongMemEvalRecord): number | undefined;
    correctEvidence(record: LongMemEvalRecord, evidence: readonly string[]): LongMemEvalRecord;
  };
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
  ): Record<string, unknown> | undefined;
  /** Tables appended to report.md after the per-category table; '' when it has none for this run. */
  tables?(summary: Summary, samples: readonly Sample[]): string;
};

/** A dataset `lme datasets list` shows (`Benchmark.catalog`). */
export type DatasetCatalogEntry = {
  /** A `--dataset` or `lme datasets download` name, or the benchmark's name for a file passed by path. */
  readonly name: string;
  readonly what: string;
  /** How many questions, or '?'. */
  readonly questions: string;
  /** Where it is, or would be, in the data directory, and whether it is there whole. */
  locate(dataDir: string): { path: string; status: 'present' | 'incomplete' | 'missing'; note?: string };
  /** How to get it: the download command and size, or where to put the files by hand. */
  readonly get: string;
};
