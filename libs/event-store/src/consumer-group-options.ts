import type { ConsumerGroupOptions } from './event-store.port';

/** Both adapters refuse the same bad options the same way, before touching the store. */
export function checkConsumerGroupOptions(options: ConsumerGroupOptions): void {
  if (!/^[A-Za-z0-9_.:-]{1,200}$/.test(options.group)) {
    throw new RangeError(`group must be 1-200 letters, digits or _ . : -, got "${options.group}"`);
  }
  if (options.streamPrefix.length === 0 || options.streamPrefix.startsWith('$')) {
    throw new RangeError('streamPrefix must be non-empty and must not start with $');
  }
  const whole = (name: string, value: number, least: number) => {
    if (!Number.isSafeInteger(value) || value < least) throw new RangeError(`${name} must be an integer >= ${least}, got ${value}`);
  };
  whole('maxInFlight', options.maxInFlight, 1);
  whole('messageTimeoutMs', options.messageTimeoutMs, 1);
  whole('maxRetries', options.maxRetries, 0);
}
