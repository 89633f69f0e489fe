import { randomUUID } from 'node:crypto';
import type { Message } from '@a2a-js/sdk' with { 'resolution-mode': 'import' };

/** A user's A2A text message with a fresh id, as a client sends one; `extra` replaces its parts. */
export function a2aTextMessage(text: string, extra: Partial<Message> = {}): Message {
  return {
    messageId: `m-${randomUUID()}`,
    contextId: '',
    taskId: '',
    role: 1,
    parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
    ...extra,
  };
}
