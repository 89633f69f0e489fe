import type { RE2JS } from 're2js';

/**
 * A pattern compiled with RE2 (linear-time matching whatever the pattern and the text), or why it
 * does not compile (backreferences, lookaround, bad syntax). Never throws. `re2js` is loaded on
 * first use, as src/domain/approval/rule-pattern.ts does, so the workflow sandbox can load it.
 */
export function compileRe2(pattern: string, ignoreCase: boolean): RE2JS | { problem: string } {
  try {
    const { RE2JS: Re2 } = require('re2js') as typeof import('re2js');
    return Re2.compile(pattern, ignoreCase ? Re2.CASE_INSENSITIVE : 0);
  } catch (error) {
    return { problem: error instanceof Error ? error.message : 'it does not compile' };
  }
}
