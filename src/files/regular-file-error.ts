/**
 * Why a file a person named could not be read. `not_regular`: a directory, a pipe, a device or a
 * socket. `symlink`: a symlink where a reader that follows none was given one (openInFolder).
 * `outside`: a path that leaves the folder it must stay in (absolute, or with `..`). `exists`: a
 * file to be created new is already there (nothing replaced).
 */
export type RegularFileProblem =
  'missing' | 'not_regular' | 'too_large' | 'unreadable' | 'symlink' | 'outside' | 'exists';

/**
 * A file named on the command line or in a setting that was not read, with a stable `problem` and
 * a message (without the path: callers name the file with their flag or setting) that says why.
 */
export class RegularFileError extends Error {
  override readonly name = 'RegularFileError';
  constructor(
    readonly file: string,
    readonly problem: RegularFileProblem,
    message: string,
    /** The errno code for `missing`/`unreadable`; the size for `too_large`. */
    readonly detail?: string | number,
  ) {
    super(message);
  }
}
