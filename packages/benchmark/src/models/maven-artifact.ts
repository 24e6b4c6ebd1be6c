import { execFile } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { stripVTControlCharacters as stripVT } from 'node:util';
import AdmZip from 'adm-zip';

export type CommandResult = { code: number | null; stdout: string; stderr: string; missing?: boolean };
export type RunCommand = (command: string, args: readonly string[]) => Promise<CommandResult>;

/** The dependency plugin, pinned: its `copy` goal runs outside a project. */
const DEPENDENCY_PLUGIN = 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1';
const TEN_MINUTES = 600_000;

export const runCommand: RunCommand = (command, args) =>
  new Promise((resolve) => {
    execFile(command, [...args], { timeout: TEN_MINUTES, maxBuffer: 1 << 24 }, (error, stdout, stderr) => {
      const code = (error as NodeJS.ErrnoException | null)?.code;
      resolve({
        code: error ? (typeof code === 'number' ? code : 1) : 0,
        stdout: String(stdout),
        stderr: String(stderr),
        missing: code === 'ENOENT',
      });
    });
  });

/**
 * Fetches one Maven artifact (a jar) into `folder` with the ordinary client, `mvn dependency:copy`,
 * so it comes from whatever repository the user's Maven settings name (and its local cache).
 * Returns the jar's path. Errors are one sentence: no `mvn`, or Maven's own first error line.
 */
export async function fetchMavenArtifact(
  artifact: string,
  folder: string,
  run: RunCommand = runCommand,
): Promise<string> {
  const result = await run('mvn', [
    '-q',
    '-B',
    `${DEPENDENCY_PLUGIN}:copy`,
    `-Dartifact=${artifact}`,
    `-DoutputDirectory=${folder}`,
  ]);
  if (result.missing) throw new Error('mvn (Apache Maven) is not installed or not on PATH');
  if (result.code !== 0) {
    const line = `${result.stdout}\n${result.stderr}`
      .split('\n')
      .map((text) => stripVT(text).trim())
      .find((text) => text.startsWith('[ERROR]'));
    throw new Error(`mvn could not fetch ${artifact} (${line ?? `exit code ${result.code}`})`);
  }
  const jars = (await readdir(folder)).filter((name) => name.endsWith('.jar'));
  if (jars.length !== 1) throw new Error(`mvn left ${jars.length} jars for ${artifact} in ${folder}`);
  return join(folder, jars[0]!);
}

/** The bytes of one entry of a zip archive (a jar or a wheel). */
export function extractArchiveEntry(archive: string, entryName: string): Buffer {
  const entry = new AdmZip(archive).getEntry(entryName);
  if (!entry || entry.isDirectory) throw new Error(`${archive} holds no file ${entryName}`);
  return entry.getData();
}
