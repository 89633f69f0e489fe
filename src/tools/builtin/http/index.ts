export type { HostResolver } from './address-guard';
export { createHttpTool, type HttpFetchResult } from './create-http-tool';
export { DEFAULT_ALLOW_HEADERS, type HttpMethod, type HttpToolOptions } from './http-options';
