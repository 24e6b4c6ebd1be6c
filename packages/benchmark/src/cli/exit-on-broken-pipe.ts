/**
 * `lme … | head`: once the reader of a stream has gone, a write fails with EPIPE, which Node
 * raises as an unhandled 'error' event (a stack trace and exit 1). Instead, a closed stdout ends
 * the CLI at once, quietly, with the exit code set so far (0 when none): nobody is left to read
 * the output. A closed stderr only drops what is written to it: the command goes on, its results
 * and stdout intact. Other stream errors are raised as before. Listens only: the redacting
 * wrapper over `write` stays in place.
 */
export function exitOnBrokenPipe(
  streams: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream } = process,
  exit: (code: number) => void = (code) => process.exit(code),
): void {
  streams.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    const code = process.exitCode;
    exit(typeof code === 'number' ? code : Number(code ?? 0) || 0);
  });
  streams.stderr.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}
