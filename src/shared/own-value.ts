/**
 * `record[key]` when `key` is the record's own property, else undefined. For lookups keyed by a
 * tool, agent or model name taken from input: a name like `constructor`, `__proto__` or
 * `toString` must behave like any other name, not reach `Object.prototype`.
 */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
