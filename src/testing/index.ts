/** Test doubles shared by tests and the offline demo. Node-only; never imported by workflow code. */
export * from './fake-messages-server';
export * from './fake-replies';
export { earlyEof, hang, httpError, midStreamError, nonJsonError, socketReset } from './fake-faults';
export type { BrokenReplyOptions, HttpErrorOptions, NonJsonErrorOptions } from './fake-faults';
export type { FakeAuth, FakeRequestBody, RecordedRequest } from './recorded-request';
export { renderStreamEvents, type SseEvent } from './render-stream';
export * as openai from './openai';
