/** Test doubles shared by tests and the offline demo. Node-only; never imported by workflow code. */
export * from './fake-messages-server';
export * from './fake-replies';
export type { FakeAuth, FakeRequestBody, RecordedRequest } from './recorded-request';
