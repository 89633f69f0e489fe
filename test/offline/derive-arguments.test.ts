import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deriveArguments } from '../../src/offline/derive-arguments';

/** The workflow's own check of a model's arguments (src/workflows/tools/validate-tool-call.ts). */
const validates = (schema: Record<string, unknown>, args: unknown) =>
  z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]).safeParse(args);
const jsonSchemaOf = (schema: z.ZodType) => z.toJSONSchema(schema) as Record<string, unknown>;

/** A small seeded generator (mulberry32): the same seed gives the same schemas on every run. */
function random(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!,
  };
}

const NAMES = [
  'city',
  'location',
  'query',
  'content',
  'name',
  'count',
  'order_id',
  'limit',
  'units',
  'flag',
  'email',
  'tags',
  'amount',
  'task',
  'file_name',
  'note',
];

/** A zod schema of the kinds tools declare: strings with bounds, formats and patterns, numbers with bounds, enums, optionals, nested objects and arrays. */
function zodSchema(r: ReturnType<typeof random>, depth: number): z.ZodType {
  const kind = r.int(0, depth > 1 ? 7 : 9);
  switch (kind) {
    case 0: {
      let s = z.string();
      if (r.next() < 0.5) s = s.min(r.int(1, 12));
      if (r.next() < 0.5) s = s.max(r.int(12, 40));
      return s;
    }
    case 1:
      return r.pick([
        z.email(),
        z.url(),
        z.uuid(),
        z.iso.date(),
        z.iso.datetime(),
        z.string().regex(/^[\w.-]{1,80}\.md$/),
        z.string().regex(/^[a-z]+$/),
      ]);
    case 2: {
      let n = r.next() < 0.5 ? z.number() : z.number().int();
      const lo = r.int(-50, 50);
      // Bounds at least 25 apart, so a multiple of 10 always fits between them.
      if (r.next() < 0.5) n = r.next() < 0.5 ? n.min(lo) : n.gt(lo);
      if (r.next() < 0.5) n = r.next() < 0.5 ? n.max(lo + r.int(25, 100)) : n.lt(lo + r.int(25, 100));
      if (r.next() < 0.3) n = n.multipleOf(r.pick([2, 5, 10]));
      return n;
    }
    case 3:
      return z.boolean();
    case 4:
      return z.enum(
        r.pick([
          ['celsius', 'fahrenheit'],
          ['asc', 'desc'],
          ['low', 'medium', 'high'],
        ] as [string, ...string[]][]),
      );
    case 5:
      return zodSchema(r, depth + 1).optional();
    case 6:
      return zodSchema(r, depth + 1).nullable();
    case 7:
      return z.literal(r.pick(['fixed', 'v1']));
    case 8: {
      const arr = z.array(zodSchema(r, depth + 1));
      return r.next() < 0.5 ? arr.min(r.int(1, 3)).max(5) : arr;
    }
    default:
      return objectSchema(r, depth + 1);
  }
}

function objectSchema(r: ReturnType<typeof random>, depth: number): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (let i = r.int(1, 5); i > 0; i--) shape[`${r.pick(NAMES)}${i}`] = zodSchema(r, depth);
  return z.object(shape).strict();
}

const TASKS = [
  'What is the weather in San Francisco and Paris? Compare them.',
  'Look up order 1234 and refund 25.5 dollars, sorted desc, priority high.',
  'Save a report called "notes" about Tokyo.',
  '',
  'Find the 3 newest tickets',
];

describe('deriveArguments', () => {
  it('gives arguments that validate against 500 generated schemas, for every task text', () => {
    const r = random(15);
    for (let i = 0; i < 500; i++) {
      const schema = jsonSchemaOf(objectSchema(r, 0));
      for (const text of TASKS) {
        const args = deriveArguments(schema, { text, observed: 'get_weather returned {"temperature": 12}' });
        const check = validates(schema, args);
        expect(check.success, `${JSON.stringify(schema)}\n${JSON.stringify(args)}\n${check.error?.message}`).toBe(true);
      }
    }
  });

  it('takes values from the task where the property asks for them', () => {
    const weather = jsonSchemaOf(
      z.object({
        location: z.string().min(1).describe('City name'),
        units: z.enum(['celsius', 'fahrenheit']).default('celsius'),
      }),
    );
    expect(deriveArguments(weather, { text: "What's the weather in Rome, in fahrenheit?" })).toEqual({
      location: 'Rome',
      units: 'fahrenheit',
    });
    expect(deriveArguments(weather, { text: 'Weather for New York please' })).toEqual({
      location: 'New York',
      units: 'celsius',
    });

    const order = jsonSchemaOf(
      z.object({ order_id: z.string(), verbose: z.boolean(), limit: z.number().int().min(1).max(50) }),
    );
    expect(deriveArguments(order, { text: 'Where is order A-1234? Show 5 lines.' })).toEqual({
      order_id: 'A-1234',
      verbose: false,
      limit: 5,
    });

    const report = jsonSchemaOf(z.object({ name: z.string().regex(/^[\w.-]{1,80}\.md$/), content: z.string().min(1) }));
    const args = deriveArguments(report, { text: 'Save a report', observed: 'lookup returned 42' });
    expect(args['content']).toBe('lookup returned 42');
    expect(String(args['name'])).toMatch(/\.md$/);
  });

  it("gives a path or file property the task's quoted string or first path-like token, else the text", () => {
    const read = jsonSchemaOf(z.object({ path: z.string().min(1).describe('File path under the root') }));
    expect(deriveArguments(read, { text: 'Read auth.py and find why login fails' })).toEqual({ path: 'auth.py' });
    expect(deriveArguments(read, { text: 'Look in src/auth/login.ts first, then tests/' })).toEqual({
      path: 'src/auth/login.ts',
    });
    expect(deriveArguments(read, { text: 'Read the login code' })).toEqual({ path: 'Read the login code' });
    // A quoted path is taken whole, leading slash and all; so is an unquoted absolute one.
    expect(deriveArguments(read, { text: 'Read the text file "/tmp/x y/notes.txt" now' })).toEqual({
      path: '/tmp/x y/notes.txt',
    });
    expect(deriveArguments(read, { text: 'Read /tmp/notes.txt now' })).toEqual({ path: '/tmp/notes.txt' });
  });

  it('leaves out optional properties the task says nothing about, and keeps every required one', () => {
    const schema = jsonSchemaOf(
      z.object({ query: z.string(), page: z.number().optional(), sort: z.enum(['asc', 'desc']).optional() }),
    );
    expect(deriveArguments(schema, { text: 'search cats' })).toEqual({ query: 'search cats' });
    expect(deriveArguments(schema, { text: 'search cats, desc' })).toEqual({
      query: 'search cats, desc',
      sort: 'desc',
    });
  });
});
