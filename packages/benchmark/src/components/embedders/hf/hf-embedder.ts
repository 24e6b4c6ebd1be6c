import { createOnnxEmbedder } from '@lme/search-core';
import { z } from 'zod';
import type { ComponentOption } from '../../component.js';
import { EMBED_THREADS_OPTION } from '../embed-threads-option.js';
import { defineEmbedder } from '../embedder-descriptor.js';

const MB = 1024 * 1024;

/** `--model-dir`: a folder of model files the user put there (air-gapped machines). */
const MODEL_DIR_OPTION = {
  schema: z.string().min(1).optional(),
  flags: '--model-dir <dir>',
  group: 'retrieval',
  help: 'folder holding ONNX model files fetched by hand (checked against configs/models.json before use)',
  env: 'LME_MODEL_DIR',
  measures: false,
} as const satisfies ComponentOption;

/**
 * `hf:<owner>/<model>[@<dtype>]`: an ONNX model of configs/models.json, run in this process by ONNX
 * Runtime, its files from `--model-dir`, the model store, or fetched on first use.
 */
export const HF_EMBEDDER = defineEmbedder({
  name: 'hf',
  description: 'an ONNX model of configs/models.json run in this process; see `lme models list`',
  options: { modelDir: MODEL_DIR_OPTION, embedThreads: EMBED_THREADS_OPTION },
  capabilities: {
    form: 'hf:<owner>/<model>[@<dtype>]',
    modelFiles: true,
    threads: true,
    // An ONNX Runtime session of the model (a few hundred MB for the catalog's base-size models).
    threadBytes: 256 * MB,
    hosted: false,
  },
  create: (model, options, dependencies) =>
    model
      ? createOnnxEmbedder({
          ...dependencies.onnxModels({ modelDir: options.modelDir })(model),
          threads: options.embedThreads,
        })
      : undefined,
  check: (model, options, dependencies) =>
    dependencies.checkModelFiles({ modelDir: options.modelDir }, model),
});
