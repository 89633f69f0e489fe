import { describe, expect, it } from 'vitest';
import type { Message } from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
import { MAX_TASK_BYTES } from '../../src/domain/run/payload-size';
import { ApiError } from '../../src/server/api-error';
import { checkMessage, decisionOf, MAX_MESSAGE_ID_CHARS, messageText } from '../../src/server/a2a/tasks/message-input';

const part = (content: NonNullable<Message['parts'][number]['content']>) => ({
  content,
  metadata: undefined,
  filename: '',
  mediaType: '',
});
const message = (parts: Message['parts'], messageId = 'm-1'): Message => ({
  messageId,
  contextId: '',
  taskId: '',
  role: 1,
  parts,
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});
const text = (value: string) => message([part({ $case: 'text', value })]);

describe('message input', () => {
  it('takes text up to a run’s task limit and refuses one byte more, saying the limit', () => {
    expect(messageText(text('é'.repeat(MAX_TASK_BYTES / 2)))).toHaveLength(MAX_TASK_BYTES / 2);
    expect(() => messageText(text(`${'é'.repeat(MAX_TASK_BYTES / 2)}x`))).toThrow(
      expect.objectContaining({
        code: 'payload_too_large',
        message: expect.stringContaining(`${MAX_TASK_BYTES} bytes`),
      }),
    );
    expect(() => messageText(text('   '))).toThrow(ApiError);
  });

  it('takes a message id up to its limit', () => {
    expect(checkMessage(message(text('hi').parts, 'i'.repeat(MAX_MESSAGE_ID_CHARS))).messageId).toHaveLength(
      MAX_MESSAGE_ID_CHARS,
    );
    expect(() => checkMessage(message(text('hi').parts, 'i'.repeat(MAX_MESSAGE_ID_CHARS + 1)))).toThrow(/messageId/);
    expect(() => checkMessage(undefined)).toThrow(/params.message/);
  });

  it('reads a decision from a data part first, else from "approve" / "reject: reason"; anything else decides nothing', () => {
    const data = message([
      part({ $case: 'text', value: 'approve' }),
      part({ $case: 'data', value: { approved: false, reason: 'not on Friday', callId: 'toolu_1' } }),
    ]);
    expect(decisionOf(data)).toEqual({ approved: false, reason: 'not on Friday', callId: 'toolu_1' });
    expect(decisionOf(text('Approve.'))).toEqual({ approved: true });
    expect(decisionOf(text('reject: wrong cluster'))).toEqual({ approved: false, reason: 'wrong cluster' });
    expect(decisionOf(text('reject'))).toEqual({ approved: false });
    expect(decisionOf(text('approve it, and also delete the rest'))).toBeUndefined();
    expect(decisionOf(message([part({ $case: 'data', value: { approved: 'yes' } })]))).toBeUndefined();
  });
});
