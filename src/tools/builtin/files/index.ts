export { createFileTools, type FileToolsOptions } from './create-file-tools';
export { DEFAULT_FILE_LIMITS, type FileLimits } from './file-limits';
export type { ListFilesResult } from './list-files-tool';
export type { ReadFileResult } from './read-file-tool';
export type { SearchFilesResult, SearchMatch } from './search-files-tool';
export type { WriteFileResult } from './write-file-tool';
