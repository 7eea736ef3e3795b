import type { LogLevel } from '@nestjs/common';
import type { AppConfig } from './config/app-config';

const LOG_LEVELS: Record<AppConfig['logLevel'], LogLevel[]> = {
  error: ['fatal', 'error'],
  warn: ['fatal', 'error', 'warn'],
  log: ['fatal', 'error', 'warn', 'log'],
  debug: ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'],
};

/** Nest's levels for LOG_LEVEL. */
export const nestLogLevels = (level: AppConfig['logLevel']): LogLevel[] => LOG_LEVELS[level];
