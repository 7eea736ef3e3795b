/** Validates `maxCount`; `undefined` means no limit. */
export function checkedMaxCount(maxCount: number | undefined): number | undefined {
  if (maxCount === undefined) return undefined;
  if (!Number.isSafeInteger(maxCount) || maxCount < 0) {
    throw new RangeError(`maxCount must be a non-negative integer, got ${maxCount}`);
  }
  return maxCount;
}

/** Validates a revision or position given to a read; `undefined` stays undefined. */
export function checkedNonNegativeInteger(name: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
  }
  return value;
}
