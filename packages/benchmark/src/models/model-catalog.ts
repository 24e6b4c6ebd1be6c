import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { z } from 'zod';
import { HF_EMBEDDER } from '../components/embedders/hf/hf-embedder.js';
import { readJsonConfig } from '../config/read-json-config.js';

/** The checked-in list of ONNX embedding models: configs/models.json. */
export const MODEL_CATALOG_PATH = resolve(import.meta.dirname, '../../../../configs/models.json');

/** The embedder name prefix of catalogued ONNX models: `hf:Xenova/bge-small-en-v1.5@q8`. */
export const HF_PREFIX = `${HF_EMBEDDER.name}:`;
export const DEFAULT_DTYPE = 'q8';

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, { error: 'is not a lower-case hex SHA-256' });
/** A relative path inside a model repository, never leaving it. */
const repositoryPath = z
  .string()
  .regex(/^[\w.-]+(\/[\w.-]+)*$/, { error: 'is not a plain relative path' })
  .refine((path) => !path.split('/').includes('..'), { error: 'must not contain ..' });

const ModelFileSchema = z.object({ path: repositoryPath, bytes: z.number().int().positive(), sha256 });

const ModelSchema = z.object({
  /** A commit of the hub repository: pins the bytes a hub download gets. */
  revision: z.string().regex(/^[0-9a-f]{40}$/, { error: 'is not a 40-hex commit' }),
  license: z.string().optional(),
  dimensions: z.number().int().positive(),
  pooling: z.enum(['mean', 'cls']),
  /** The model's token limit, special tokens included. */
  maxTokens: z.number().int().min(8),
  maxTokensSource: z.string().optional(),
  queryPrefix: z.string().default(''),
  documentPrefix: z.string().default(''),
  tokenizer: ModelFileSchema,
  /** The ONNX file per dtype (`q8`: int8-quantized, `fp32`, ...). */
  dtypes: z.record(z.string().regex(/^[\w-]+$/), ModelFileSchema),
  /** Registry packages carrying the same files: which file of the archive is which repository path. */
  packages: z
    .array(
      z.object({
        registry: z.literal('maven'),
        /** group:artifact:version, fetched with `mvn dependency:copy`. */
        artifact: z.string().regex(/^[\w.-]+:[\w.-]+:[\w.-]+$/),
        dtype: z.string(),
        files: z.record(repositoryPath, z.string().min(1)),
      }),
    )
    .default([]),
});

const ModelCatalogSchema = z.object({
  description: z.string().optional(),
  hubUrl: z.url(),
  source: z.string().min(1),
  models: z.record(z.string().regex(/^[\w.-]+\/[\w.-]+$/, { error: 'is not <owner>/<name>' }), ModelSchema),
});

export type ModelCatalog = z.infer<typeof ModelCatalogSchema>;
export type CatalogModel = ModelCatalog['models'][string];
export type ModelFile = z.infer<typeof ModelFileSchema>;
export type ModelPackage = CatalogModel['packages'][number];

/** One catalogued model at one dtype: what an `hf:` embedder name resolves to. */
export type ModelChoice = {
  /** `hf:<repository>@<dtype>`, the embedder id. */
  name: string;
  repository: string;
  dtype: string;
  model: CatalogModel;
  /** The files the embedder needs: the ONNX file of the dtype and the tokenizer. */
  files: { model: ModelFile; tokenizer: ModelFile };
};

/** Reads and checks configs/models.json (or another file in its format). */
export function loadModelCatalog(path: string = MODEL_CATALOG_PATH): ModelCatalog {
  return readJsonConfig(path, ModelCatalogSchema);
}

/**
 * The catalogued model a name means: `Xenova/bge-small-en-v1.5`, with or without `hf:` and with an
 * optional `@<dtype>` (default q8). Unknown names and dtypes fail, listing what there is.
 */
export function chooseModel(catalog: ModelCatalog, name: string): ModelChoice {
  const bare = name.startsWith(HF_PREFIX) ? name.slice(HF_PREFIX.length) : name;
  const at = bare.lastIndexOf('@');
  const repository = at > 0 ? bare.slice(0, at) : bare;
  const dtype = at > 0 ? bare.slice(at + 1) : DEFAULT_DTYPE;
  const model = Object.hasOwn(catalog.models, repository) ? catalog.models[repository] : undefined;
  if (!model) {
    throw new Error(
      `Unknown model "${repository}"; configs/models.json has ${Object.keys(catalog.models).join(', ')} (add an entry there, with its files' SHA-256, to use another).`,
    );
  }
  const file = Object.hasOwn(model.dtypes, dtype) ? model.dtypes[dtype] : undefined;
  if (!file) {
    throw new Error(
      `Model ${repository} has no pinned "${dtype}" file; configs/models.json pins ${Object.keys(model.dtypes).join(', ')}.`,
    );
  }
  return {
    name: `${HF_PREFIX}${repository}@${dtype}`,
    repository,
    dtype,
    model,
    files: { model: file, tokenizer: model.tokenizer },
  };
}

/**
 * What the embedding cache keys this model's vectors by: the name, the ONNX file's checksum and
 * everything else that changes a vector (pooling, token limit, prefixes). Two choices share cached
 * vectors exactly when all of these agree.
 */
export function modelCacheIdentity(choice: ModelChoice): string {
  const { model } = choice;
  const settings = JSON.stringify([model.pooling, model.maxTokens, model.queryPrefix, model.documentPrefix]);
  const digest = createHash('sha256').update(settings).digest('hex').slice(0, 12);
  return `${choice.name}#sha256:${choice.files.model.sha256.slice(0, 16)}#settings:${digest}`;
}
