/** Size and count caps of the file tools. Every one is enforced where the data is read or written. */
export interface FileLimits {
  /** Bytes `files_read` returns; the rest is cut with a marker. Default 256 KiB. */
  maxReadBytes: number;
  /** Bytes `files_write` accepts in one call. Default 1 MiB. */
  maxWriteBytes: number;
  /** Entries `files_list` returns. Default 1,000. */
  maxListEntries: number;
  /** Matching lines `files_search` returns. Default 100. */
  maxSearchResults: number;
  /** Files `files_search` opens in one call. Default 2,000. */
  maxSearchFiles: number;
  /** Bytes `files_search` reads in one call, over all files. Default 16 MiB. */
  maxSearchBytes: number;
}

export const DEFAULT_FILE_LIMITS: FileLimits = Object.freeze({
  maxReadBytes: 256 * 1024,
  maxWriteBytes: 1024 * 1024,
  maxListEntries: 1_000,
  maxSearchResults: 100,
  maxSearchFiles: 2_000,
  maxSearchBytes: 16 * 1024 * 1024,
});

/** The limits with the caller's overrides, each checked to be a positive integer. */
export function fileLimits(overrides: Partial<FileLimits>): FileLimits {
  const limits = { ...DEFAULT_FILE_LIMITS };
  for (const key of Object.keys(DEFAULT_FILE_LIMITS) as Array<keyof FileLimits>) {
    const value = overrides[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value <= 0)
      throw new RangeError(`createFileTools: ${key} must be a positive integer, got ${String(value)}.`);
    limits[key] = value;
  }
  return Object.freeze(limits);
}
