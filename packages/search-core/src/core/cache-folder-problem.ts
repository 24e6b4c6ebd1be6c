/**
 * One sentence saying that a cache folder cannot be written and what to do, e.g. `The embedding
 * cache folder /x/embeddings/e is full (ENOSPC): free space on its disk, point --cache-dir at
 * another folder, or run with --no-cache.` `consequence` (", so …") goes after the cause.
 */
export function cacheFolderProblem(options: {
  what: string;
  folder: string;
  error: unknown;
  consequence?: string;
}): string {
  const code = (options.error as NodeJS.ErrnoException | undefined)?.code;
  const [state, remedy] =
    code === 'ENOSPC' || code === 'EDQUOT'
      ? ['is full', 'free space on its disk']
      : code === 'EROFS' || code === 'EACCES' || code === 'EPERM'
        ? ['is read-only', 'make it writable']
        : ['cannot be used', 'make it a folder lme can write'];
  const cause = code ?? (options.error instanceof Error ? options.error.message : String(options.error));
  return (
    `The ${options.what} folder ${options.folder} ${state} (${cause})${options.consequence ?? ''}: ` +
    `${remedy}, point --cache-dir at another folder, or run with --no-cache.`
  );
}
