import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { textSink } from '../testing/text-sink.js';
import { addLoggingOptions, createLogger, type LogLevel, logLevelOf } from './logger.js';
import { createProgress } from './progress.js';

/** A logger writing into a string, with what it wrote. */
function capture(level: LogLevel) {
  const sink = textSink();
  return { logger: createLogger({ level, stream: sink.stream }), text: sink.text };
}

function sayEverything(logger: ReturnType<typeof createLogger>) {
  logger.error('bad input');
  logger.warn('a flag with no effect');
  logger.info('read 22 questions');
  logger.debug('config from flags: dataset');
  const progress = createProgress('questions', {
    stream: {
      write(chunk: string) {
        logger.line('error', chunk.trimEnd());
        return true;
      },
    },
    interactive: false,
    now: () => 0,
    logger,
  });
  progress.update(1, 2);
}

describe('the logger', () => {
  it('shows each level and those above it, progress only from info', () => {
    const shown = Object.fromEntries(
      (['error', 'warn', 'info', 'debug'] as const).map((level) => {
        const { logger, text } = capture(level);
        sayEverything(logger);
        return [level, text()];
      }),
    );
    expect(shown.error).toBe('lme: bad input\n');
    expect(shown.warn).toBe('lme: bad input\nlme: warning: a flag with no effect\n');
    expect(shown.info).toBe(
      'lme: bad input\nlme: warning: a flag with no effect\nread 22 questions\nquestions 1/2 (50%)\n',
    );
    expect(shown.debug).toBe(
      'lme: bad input\nlme: warning: a flag with no effect\nread 22 questions\nlme: debug: config from flags: dataset\nquestions 1/2 (50%)\n',
    );
  });

  it('reads --quiet as error, --verbose as debug, info by default, and refuses two different levels', () => {
    expect(logLevelOf({})).toBe('info');
    expect(logLevelOf({ quiet: true })).toBe('error');
    expect(logLevelOf({ verbose: true })).toBe('debug');
    expect(logLevelOf({ logLevel: 'warn' })).toBe('warn');
    expect(logLevelOf({ quiet: true, logLevel: 'error' })).toBe('error');
    expect(() => logLevelOf({ quiet: true, verbose: true })).toThrow(
      '--quiet, --verbose and --log-level ask for different levels (error, debug); give one of them.',
    );
  });

  it('adds -q, -v and --log-level to every subcommand, refusing an unknown level', () => {
    const program = new Command('lme').exitOverride();
    program
      .command('datasets')
      .command('list')
      .action(() => {});
    program.command('run').action(() => {});
    for (const command of program.commands) addLoggingOptions(command);
    const list = program.commands[0]!.commands[0]!;
    list.configureOutput({ writeErr: () => {} }).exitOverride();
    list.parse(['-q'], { from: 'user' });
    expect(list.opts()).toEqual({ quiet: true });
    const help = program.commands[1]!.helpInformation();
    expect(help).toMatch(/Output and logging:\n {2}-q, --quiet /);
    expect(help).toMatch(/\n {2}-v, --verbose /);
    expect(help).toMatch(/\n {2}--log-level <level> /);
    expect(() => list.parse(['--log-level', 'loud'], { from: 'user' })).toThrow(
      /Allowed choices are error, warn, info, debug/,
    );
  });
});
