/**
 * Payloads a caller (or a raw gRPC client) can put where a message expects an object: wrong
 * types, null, objects without prototypes, getters and proxies that throw, values that cannot
 * become text, huge strings, deep nesting, prototype-pollution keys. Used by the unit and the
 * dev-server tests of the message handlers; `wire` marks those that survive JSON (what a real
 * client can send).
 */
export interface HostilePayload {
  name: string;
  value: () => unknown;
  wire: boolean;
}

const throwing = () => {
  throw new Error('boom from a getter');
};
const getterObject = (key: string) => Object.defineProperty({}, key, { get: throwing, enumerable: true });
const throwingProxy = () =>
  new Proxy(
    {},
    { get: throwing, has: throwing, ownKeys: throwing, getOwnPropertyDescriptor: throwing, getPrototypeOf: throwing },
  );
const noPrototype = (fields: Record<string, unknown>) => Object.assign(Object.create(null) as object, fields);
const deep = (depth: number): unknown => {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};
const deepObject = (depth: number): unknown => {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = { text: value };
  return value;
};
/** Cannot become a string: `${x}` and String(x) throw. */
const unprintable = { toString: 1, valueOf: 1 };
const huge = 'x'.repeat(1_000_000);

export const HOSTILE_PAYLOADS: readonly HostilePayload[] = [
  { name: 'null', value: () => null, wire: true },
  { name: 'zero', value: () => 0, wire: true },
  { name: 'a number', value: () => 42, wire: true },
  { name: 'true', value: () => true, wire: true },
  { name: 'an empty string', value: () => '', wire: true },
  { name: 'a huge string', value: () => huge, wire: true },
  { name: 'an empty array', value: () => [], wire: true },
  { name: 'an array of null', value: () => [null, null], wire: true },
  { name: 'an empty object', value: () => ({}), wire: true },
  {
    name: 'fields of the wrong types',
    value: () => ({
      text: 5,
      reason: [],
      by: {},
      callId: 7,
      approved: 'yes',
      continue: 'yes',
      workflowId: null,
      pending: 'x',
    }),
    wire: true,
  },
  {
    name: 'fields that cannot become text',
    value: () => ({
      text: unprintable,
      reason: unprintable,
      by: unprintable,
      note: unprintable,
      workflowId: unprintable,
    }),
    wire: true,
  },
  {
    name: 'null fields',
    value: () => ({ text: null, reason: null, by: null, callId: null, approved: null, continue: null, pending: null }),
    wire: true,
  },
  { name: 'pending of nulls', value: () => ({ workflowId: 'child-1', pending: [null, 1, 'x'] }), wire: true },
  { name: 'a huge by', value: () => ({ text: 'hi', reason: 'r', by: huge }), wire: true },
  {
    name: 'a __proto__ key',
    value: () =>
      JSON.parse('{"__proto__": {"text": "polluted", "reason": "polluted"}, "constructor": {"prototype": {"x": 1}}}'),
    wire: true,
  },
  { name: 'nested 1,000 deep', value: () => deep(1_000), wire: true },
  // JSON.stringify overflows the stack past ~8,000 levels, so a client cannot send this one as JSON (the dev-server test sends 500,000 levels as raw bytes).
  { name: 'nested 10,000 deep', value: () => deep(10_000), wire: false },
  { name: 'fields nested 1,000 deep', value: () => deepObject(1_000), wire: true },
  { name: 'an object without a prototype', value: () => noPrototype({}), wire: false },
  {
    name: 'prototype-less fields of the wrong types',
    value: () => noPrototype({ text: noPrototype({}), reason: noPrototype({}), by: noPrototype({}) }),
    wire: false,
  },
  { name: 'a throwing getter on text', value: () => getterObject('text'), wire: false },
  { name: 'a throwing getter on reason', value: () => getterObject('reason'), wire: false },
  {
    name: 'a throwing getter on by',
    value: () => Object.defineProperty({ text: 'hi' }, 'by', { get: throwing, enumerable: true }),
    wire: false,
  },
  { name: 'a throwing getter on callId', value: () => getterObject('callId'), wire: false },
  { name: 'a proxy whose every trap throws', value: throwingProxy, wire: false },
  { name: 'a function', value: () => () => 'x', wire: false },
  { name: 'a symbol', value: () => Symbol('x'), wire: false },
  { name: 'a bigint', value: () => 10n, wire: false },
];
