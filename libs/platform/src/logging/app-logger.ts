import { ConsoleLogger, LogLevel } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { nestLogLevels } from '../log-levels';
import { redact } from './redact';

type JsonOptions = Parameters<ConsoleLogger['getJsonLogObject']>[1];

/**
 * Nest's console logger with two additions. In JSON mode a message that is an object is spread into
 * the line (`{level, pid, timestamp, context, message, ...fields}`), so a log shipper reads its fields
 * directly. And every object message, in either mode, goes through `redact` first: a secret-named
 * field logged by mistake prints `[redacted]`.
 */
export class AppLogger extends ConsoleLogger {
  protected override printMessages(
    messages: unknown[],
    context?: string,
    logLevel?: LogLevel,
    writeStreamType?: 'stdout' | 'stderr',
    errorStack?: unknown,
  ): void {
    super.printMessages(
      messages.map((message) => redact(message)),
      context,
      logLevel,
      writeStreamType,
      errorStack,
    );
  }

  /** Prints a `log` line whatever the levels. */
  announce(message: unknown, context: string): void {
    this.printMessages([message], context, 'log');
  }

  protected override getJsonLogObject(message: unknown, options: JsonOptions) {
    const line = super.getJsonLogObject(message, options);
    if (message === null || typeof message !== 'object' || Array.isArray(message)) return line;
    const { message: text, ...fields } = message as Record<string, unknown>;
    // The line's own keys win: a field named `level` cannot pass for the level.
    return { ...fields, ...line, message: text };
  }
}

/** Whether this process writes JSON lines: LOG_FORMAT, or, when it is `auto`, whether stdout is a terminal. */
export const writesJson = (format: AppConfig['logFormat'], stdoutIsTty = process.stdout.isTTY === true): boolean =>
  format === 'json' || (format === 'auto' && !stdoutIsTty);

/**
 * The logger of every app: JSON lines unless a person is watching (LOG_FORMAT), the levels of
 * LOG_LEVEL, and colours only on a terminal (never ANSI codes in a file or a pipe).
 */
export function createAppLogger(config: Pick<AppConfig, 'logFormat' | 'logLevel'>, stdoutIsTty = process.stdout.isTTY === true): AppLogger {
  const json = writesJson(config.logFormat, stdoutIsTty);
  return new AppLogger({ json, colors: !json && stdoutIsTty, logLevels: nestLogLevels(config.logLevel) });
}

/**
 * A line saying the process is up (and where), printed whatever LOG_LEVEL and in the process's log
 * format: operators, scripts and tests wait for it.
 */
export function announce(config: Pick<AppConfig, 'logFormat' | 'logLevel'>, context: string, message: string): void {
  createAppLogger(config).announce(message, context);
}
