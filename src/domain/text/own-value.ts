/**
 * `record[key]` when `key` is the record's own property, else undefined. For lookups keyed by a
 * tool, agent or model name taken from input: a name like `constructor`, `__proto__` or
 * `toString` must behave like any other name, not reach `Object.prototype`.
 */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Run-input records keyed by a tool or agent name. */
const NAME_KEYED_FIELDS = ['approvals', 'visibilityByTool', 'agents'] as const;

/**
 * Why the raw run input cannot be read as sent: a record keyed by tool or agent name that holds
 * `__proto__` as an own key (JSON can carry one). Parsing drops that key silently, so a policy,
 * visibility or agent named `__proto__` would not apply; the run is refused instead.
 */
export function protoKeyProblem(raw: unknown): string | undefined {
  if (raw === null || typeof raw !== 'object') return undefined;
  for (const field of NAME_KEYED_FIELDS) {
    const record: unknown = Object.hasOwn(raw, field) ? (raw as Record<string, unknown>)[field] : undefined;
    if (record !== null && typeof record === 'object' && Object.hasOwn(record, '__proto__')) {
      return `"__proto__" cannot name a tool or agent in ${field}: rename the tool or agent.`;
    }
  }
  return undefined;
}
