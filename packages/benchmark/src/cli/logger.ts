import { type Command, Option } from 'commander';

/**
 * What lme says on stderr besides a command's own output (tables and results paths go to stdout
 * and are never hidden), by level:
 * - `error`: the one sentence of a failure (`--quiet` shows nothing else);
 * - `warn`: `lme: warning: …` lines (a flag with no effect, an unverified file, a skipped step);
 * - `info` (the default): also progress, "read N questions from …", resume and QA notices;
 * - `debug` (`-v`, `--verbose`): also the config layers a run was resolved from and one line per
 *   finished question.
 */
export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;

export type LogLevel = (typeof LOG_LEVELS)[number];

export type Logger = {
  readonly level: LogLevel;
  /** Whether messages of `level` are shown. */
  shows(level: LogLevel): boolean;
  error(message: string): void;
  warn(message: string): void;
  info(message: string): void;
  debug(message: string): void;
  /** `message` as it is, without a prefix, when `level` is shown. */
  line(level: LogLevel, message: string): void;
};

export type LoggerOptions = { level?: LogLevel; stream?: Pick<NodeJS.WritableStream, 'write'> };

export function createLogger({ level = 'info', stream = process.stderr }: LoggerOptions = {}): Logger {
  const rank = LOG_LEVELS.indexOf(level);
  const shows = (wanted: LogLevel) => LOG_LEVELS.indexOf(wanted) <= rank;
  const write = (wanted: LogLevel, prefix: string, message: string) => {
    if (shows(wanted)) stream.write(`${prefix}${message}\n`);
  };
  return {
    level,
    shows,
    error: (message) => write('error', 'lme: ', message),
    warn: (message) => write('warn', 'lme: warning: ', message),
    info: (message) => write('info', '', message),
    debug: (message) => write('debug', 'lme: debug: ', message),
    line: (wanted, message) => write(wanted, '', message),
  };
}

let current = createLogger();

/** The logger of this process, set from the command line by `configureLogging`. */
export const log: Logger = {
  get level() {
    return current.level;
  },
  shows: (level) => current.shows(level),
  error: (message) => current.error(message),
  warn: (message) => current.warn(message),
  info: (message) => current.info(message),
  debug: (message) => current.debug(message),
  line: (level, message) => current.line(level, message),
};

/** Replaces the process logger (tests restore it with the returned function). */
export function setLogger(logger: Logger): () => void {
  const previous = current;
  current = logger;
  return () => {
    current = previous;
  };
}

export type LoggingFlags = { quiet?: boolean; verbose?: boolean; logLevel?: LogLevel };

/** The level the flags ask for; `--quiet` with `--verbose`, or either with another `--log-level`, is refused. */
export function logLevelOf(flags: LoggingFlags): LogLevel {
  const asked = [
    ...(flags.quiet ? (['error'] as const) : []),
    ...(flags.verbose ? (['debug'] as const) : []),
    ...(flags.logLevel ? [flags.logLevel] : []),
  ];
  if (new Set(asked).size > 1)
    throw new Error(
      `--quiet, --verbose and --log-level ask for different levels (${asked.join(', ')}); give one of them.`,
    );
  return asked[0] ?? 'info';
}

const LOGGING_GROUP = 'Output and logging:';

/** `--quiet`, `-v, --verbose` and `--log-level` on a command (and its subcommands). */
export function addLoggingOptions(command: Command): Command {
  if (!command.options.some((option) => option.long === '--quiet')) {
    command
      .addOption(
        new Option('-q, --quiet', 'show only errors (and the results on stdout)').helpGroup(LOGGING_GROUP),
      )
      .addOption(
        new Option('-v, --verbose', 'also show debug lines: config layers, one line per question').helpGroup(
          LOGGING_GROUP,
        ),
      )
      .addOption(
        new Option('--log-level <level>', 'what stderr shows: error, warn, info (default) or debug')
          .choices(LOG_LEVELS)
          .helpGroup(LOGGING_GROUP),
      );
  }
  for (const sub of command.commands) addLoggingOptions(sub);
  return command;
}
