/** A writable stand-in that keeps what is written to it, for tests of what lme prints. */
export function textSink(): { stream: { write(chunk: string): boolean }; text(): string } {
  const chunks: string[] = [];
  return {
    stream: {
      write(chunk: string) {
        chunks.push(chunk);
        return true;
      },
    },
    text: () => chunks.join(''),
  };
}
