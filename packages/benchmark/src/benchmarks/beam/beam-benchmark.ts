import type { Benchmark } from '../benchmark.js';
import { BEAM_ABILITIES } from './beam-abilities.js';
import { isBeamFolder, loadBeam } from './load-beam.js';

/**
 * BEAM (github.com/mohammadtavakoli78/BEAM): one user's long conversation per folder, probing
 * questions of ten abilities with message-level gold and rubrics. A dataset is a FOLDER: a tier
 * (`chats/100K`, conversations `1`…`20`) or one conversation. Retrieval is graded on the gold
 * messages (turn level) and the sessions holding them; `--convention official` is refused: BEAM
 * defines no retrieval gold of its own beyond these messages, which `evidence` grades.
 */
export const beamBenchmark: Benchmark = {
  name: 'beam',
  description:
    'BEAM: long single-user conversations, probing questions of ten memory abilities, rubric judge',
  // Files are never BEAM's: it is recognised as a folder (recognizesFolder).
  recognizes: () => false,
  recognizesFolder: (path) => isBeamFolder(path),
  load: async (path, options = {}) => {
    const loaded = await loadBeam(path);
    for (const warning of loaded.warnings) options.onWarning?.(warning);
    for (const [position, record] of loaded.records.entries()) options.onRecord?.(record, position);
    return loaded;
  },
  questionTypes: BEAM_ABILITIES,
  judgeRubric: 'beam',
  readerPrompt: 'beam',
  officialConventionRefusal:
    'BEAM defines no official retrieval gold (its official score is a rubric judge on answers); its message-level gold (source_chat_ids) is graded with --convention evidence',
};
