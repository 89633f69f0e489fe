/** Fitting derived values to a JSON Schema's constraints, for the offline model's arguments. Pure. */

export type Schema = Record<string, unknown>;

/** Fits the first workable candidate to the schema's pattern and length, or builds one that does. */
export function fitString(candidates: readonly string[], schema: Schema): string {
  const min = integerOr(schema['minLength'], 0);
  const max = integerOr(schema['maxLength'], Number.POSITIVE_INFINITY);
  const pattern = typeof schema['pattern'] === 'string' ? safeRegExp(schema['pattern']) : undefined;
  const extension = typeof schema['pattern'] === 'string' ? /\\\.(\w+)\)?\$?$/.exec(schema['pattern'])?.[1] : undefined;
  const shaped = [...candidates, 'offline'].flatMap((c) => {
    const slug =
      c
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '')
        .slice(0, 40) || 'offline';
    return [c, slug, ...(extension ? [`${slug}.${extension}`] : []), slug.replace(/-/g, '_')];
  });
  const fitted = shaped.map((c) => fitLength(c, min, max));
  return fitted.find((c) => !pattern || pattern.test(c)) ?? fitted[0]!;
}

function fitLength(value: string, min: number, max: number): string {
  const cut = [...value].slice(0, max).join('');
  return cut.length >= min ? cut : cut.padEnd(min, '.');
}

export function fits(n: number, schema: Schema, integer: boolean): boolean {
  if (integer && !Number.isInteger(n)) return false;
  if (typeof schema['minimum'] === 'number' && n < schema['minimum']) return false;
  if (typeof schema['maximum'] === 'number' && n > schema['maximum']) return false;
  if (typeof schema['exclusiveMinimum'] === 'number' && n <= schema['exclusiveMinimum']) return false;
  if (typeof schema['exclusiveMaximum'] === 'number' && n >= schema['exclusiveMaximum']) return false;
  if (typeof schema['multipleOf'] === 'number' && schema['multipleOf'] > 0 && !isMultiple(n, schema['multipleOf']))
    return false;
  return true;
}

/** The allowed number nearest the lower bound (0 when there is no bound and 0 fits). */
export function fitNumber(schema: Schema, integer: boolean): number {
  const num = (key: string) => (typeof schema[key] === 'number' ? (schema[key] as number) : undefined);
  const step = (num('multipleOf') ?? 0) > 0 ? num('multipleOf')! : integer ? 1 : undefined;
  const exMin = num('exclusiveMinimum');
  const exMax = num('exclusiveMaximum');
  const low = Math.max(num('minimum') ?? Number.NEGATIVE_INFINITY, exMin ?? Number.NEGATIVE_INFINITY);
  const high = Math.min(num('maximum') ?? Number.POSITIVE_INFINITY, exMax ?? Number.POSITIVE_INFINITY);
  let n: number;
  if (Number.isFinite(low)) {
    n = step ? Math.ceil(low / step) * step : low;
    if (exMin !== undefined && n <= exMin) n = step ? n + step : Number.isFinite(high) ? (exMin + high) / 2 : exMin + 1;
  } else {
    const top = Math.min(0, high);
    n = step ? Math.floor(top / step) * step : top;
    if (exMax !== undefined && n >= exMax) n = step ? n - step : exMax - 1;
  }
  return Number(n.toPrecision(12));
}

function isMultiple(n: number, step: number): boolean {
  const q = n / step;
  return Math.abs(q - Math.round(q)) < 1e-9;
}

export function distinct(item: unknown, index: number, schema: Schema): unknown {
  if (typeof item === 'string') return fitString([`${item} ${index + 1}`, `${index + 1}`], schema);
  if (typeof item === 'number') {
    const step = typeof schema['multipleOf'] === 'number' ? schema['multipleOf'] : 1;
    return item + index * step;
  }
  return item;
}

/** The first non-null choice of an `anyOf`, `oneOf` or type list, merged with the rest of the schema. */
export function firstChoice(schema: Schema): Schema | undefined {
  const { anyOf, oneOf, type, ...rest } = schema;
  const list = [anyOf, oneOf].find(Array.isArray) as unknown[] | undefined;
  if (list)
    return {
      ...rest,
      ...(type !== undefined ? { type } : {}),
      ...asSchema(list.find((s) => asSchema(s)['type'] !== 'null') ?? list[0]),
    };
  if (Array.isArray(type)) return { ...rest, type: (type as unknown[]).find((t) => t !== 'null') ?? type[0] };
  return undefined;
}

export function typeOf(schema: Schema): string {
  if (typeof schema['type'] === 'string') return schema['type'];
  if (isRecord(schema['properties'])) return 'object';
  if (schema['items'] !== undefined) return 'array';
  return 'string';
}

export function safeRegExp(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
}

export function integerOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : fallback;
}

export function asSchema(value: unknown): Schema {
  return isRecord(value) ? value : {};
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
