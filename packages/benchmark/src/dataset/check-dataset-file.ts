import { open, stat } from 'node:fs/promises';

const GZIP_MAGIC = [0x1f, 0x8b];

/**
 * Fails, in one sentence that starts with the path, on a dataset file that cannot be read as one:
 * missing, a directory, empty, or compressed otherwise than its name says (gzip bytes in a
 * `.json`, plain bytes in a `.gz`).
 */
export async function checkDatasetFile(path: string): Promise<void> {
  const stats = await stat(path).catch((error: NodeJS.ErrnoException) => {
    throw new Error(`${path}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
  });
  if (stats.isDirectory()) throw new Error(`${path}: is a directory, not a dataset file`);
  if (!stats.isFile()) throw new Error(`${path}: is not a regular file`);
  if (stats.size === 0) throw new Error(`${path}: the file is empty (0 bytes)`);
  const handle = await open(path).catch((error: NodeJS.ErrnoException) => {
    throw new Error(`${path}: cannot be read (${error.code ?? error.message})`);
  });
  const head = Buffer.alloc(2);
  try {
    await handle.read(head, 0, 2, 0);
  } finally {
    await handle.close();
  }
  const gzipped = head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
  if (path.endsWith('.gz') && !gzipped) {
    throw new Error(
      `${path}: the name ends in .gz but the file is not gzip-compressed; rename it without .gz if it is plain JSON`,
    );
  }
  if (!path.endsWith('.gz') && gzipped) {
    throw new Error(
      `${path}: the file is gzip-compressed but its name does not end in .gz; add .gz to its name`,
    );
  }
}
