import { type Benchmark, RECORD_EVIDENCE_GOLD } from '../benchmark.js';
import { BEAM_ABILITIES } from './beam-abilities.js';
import { BEAM_CATALOG } from './beam-catalog.js';
import { BEAM_DATASETS, downloadBeamTier } from './beam-download.js';
import { beamDatasetFiles, isBeamFolder } from './beam-folders.js';
import { BEAM_READER_PROMPT } from './beam-prompts.js';
import { beamOfficialRubric, beamPartialRubric } from './beam-rubric.js';
import { resolveBeamTier } from './beam-tier-status.js';
import { loadBeam } from './load-beam.js';

/**
 * BEAM (github.com/mohammadtavakoli78/BEAM): one user's long conversation per folder, probing
 * questions of ten abilities with message-level gold and rubrics. A dataset is a FOLDER: a tier
 * (`chats/100K`, conversations `1`…`20`) or one conversation. Retrieval is graded on the gold
 * messages (turn level) and the sessions holding them, under `evidence`; `--convention official`
 * is refused: BEAM's official evaluation scores answers with its rubric judge and defines no
 * retrieval gold beyond these messages.
 */
export const beamBenchmark: Benchmark = {
  name: 'beam',
  description:
    'BEAM: long single-user conversations, probing questions of ten memory abilities, rubric judge',
  formatHint:
    'a BEAM folder (a tier such as chats/100K of numbered conversation folders, each with chat.json and probing_questions/probing_questions.json)',
  recognizesPath: (path) => isBeamFolder(path),
  datasetFiles: (path) => beamDatasetFiles(path),
  // Files are never BEAM's: a dataset is a folder (recognizesPath).
  recognizes: () => false,
  load: async (path, options = {}) => {
    const loaded = await loadBeam(path);
    for (const warning of loaded.warnings) options.onWarning?.(warning);
    for (const [position, record] of loaded.records.entries()) options.onRecord?.(record, position);
    return loaded;
  },
  datasets: {
    names: Object.keys(BEAM_DATASETS),
    // An absent or half-downloaded tier is named as such, with the next step (not "a folder").
    resolve: (name, dataDir) => resolveBeamTier(name, dataDir),
  },
  catalog: BEAM_CATALOG,
  downloads: {
    names: [...Object.keys(BEAM_DATASETS), 'beam-1m', 'beam-10m'],
    download: async (name, { dataDir, baseUrl }) => {
      const result = await downloadBeamTier({ name, dataDir, ...(baseUrl ? { rawUrl: baseUrl } : {}) });
      return `${name}: ${result.files} files (${result.fetched} downloaded, ${result.alreadyPresent} already present), SHA-256 verified: ${result.folder}`;
    },
  },
  questionTypes: BEAM_ABILITIES,
  conventions: { evidence: RECORD_EVIDENCE_GOLD },
  defaults: { convention: 'evidence', judge: 'beam', readerPrompt: 'beam' },
  judges: {
    /** BEAM's rubric judge (compute_metrics.py): int(score) per item, as the official code counts. */
    beam: beamOfficialRubric,
    /** The same calls, each item's 1 / 0.5 / 0 as the judge wrote it. */
    'beam-partial': beamPartialRubric,
  },
  readerPrompts: {
    /** BEAM's RAG baseline reader (`answer_generation_for_rag`), `<context>` then `<question>` replaced. */
    beam: {
      description: "BEAM's RAG baseline reader (answer_generation_for_rag): answer only from the context",
      fill: ({ history, question }) =>
        BEAM_READER_PROMPT.split('<context>').join(history).split('<question>').join(question),
    },
  },
};
