import { describe, expect, it } from 'vitest';
import { LIVE_TAIL_CHARS, LiveReplyBuffer, isLiveReply, unseenPart } from '../../src/domain';

describe('live replies in heartbeats', () => {
  it('snapshots text and thinking separately', () => {
    const buffer = new LiveReplyBuffer();
    buffer.append('thinking', 'hmm ');
    buffer.append('text', 'Hel');
    buffer.append('text', 'lo');
    const snap = buffer.snapshot();
    expect(isLiveReply(snap)).toBe(true);
    expect(snap.text).toEqual({ offset: 0, tail: 'Hello' });
    expect(snap.thinking).toEqual({ offset: 0, tail: 'hmm ' });
  });

  it('keeps only a bounded tail of a long reply, with its offset', () => {
    const buffer = new LiveReplyBuffer();
    buffer.append('text', 'x'.repeat(LIVE_TAIL_CHARS + 10));
    buffer.append('text', 'END');
    const { text } = buffer.snapshot();
    expect(text.tail.length).toBe(LIVE_TAIL_CHARS);
    expect(text.offset).toBe(13);
    expect(text.tail.endsWith('END')).toBe(true);
  });

  it('hands a watcher only what it has not shown, and the whole tail after a gap', () => {
    expect(unseenPart({ offset: 0, tail: 'Hello' }, 3)).toBe('lo');
    expect(unseenPart({ offset: 0, tail: 'Hello' }, 5)).toBe('');
    expect(unseenPart({ offset: 10, tail: 'abc' }, 11)).toBe('bc');
    expect(unseenPart({ offset: 10, tail: 'abc' }, 2)).toBe('abc');
  });

  it('rejects heartbeat details that are not ours', () => {
    expect(isLiveReply(undefined)).toBe(false);
    expect(isLiveReply({ kind: 'other' })).toBe(false);
    expect(isLiveReply(42)).toBe(false);
  });
});
