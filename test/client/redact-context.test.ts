import { describe, expect, it } from 'vitest';
import { redactContext } from '../../src/client/start/redact-context';

describe('redactContext', () => {
  it('redacts secrets in data values, under credential-named keys, and in file contents', () => {
    const init = {
      task: 'Fix it',
      context: {
        data: { file: 'auth.py', note: 'key AKIAQ3EGUJ5RZTXMPL7W leaked', db_password: 'hunter2hunter2' },
        files: [{ name: 'cfg.py', content: `KEY = "sk-ant-api03-${'a1B2c3D4'.repeat(6)}"\n`, bytes: 70 }],
      },
    };
    const out = redactContext(init);
    expect(out.task).toBe('Fix it');
    expect(out.context?.data).toEqual({ file: 'auth.py', note: 'key [REDACTED] leaked', db_password: '[REDACTED]' });
    expect(out.context?.files?.[0]).toEqual({ name: 'cfg.py', content: 'KEY = "[REDACTED]"\n', bytes: 70 });
    // The caller's object is not changed.
    expect(init.context.data.db_password).toBe('hunter2hunter2');
  });

  it('leaves an input without context as it is', () => {
    const init = { task: 'Weather in Paris?' };
    expect(redactContext(init)).toBe(init);
  });
});
