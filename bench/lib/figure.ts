/** The shape every benchmark returns: named values with units, each checked against its target. */

export interface Target {
  op: '<' | '<=';
  value: number;
  /** When the target applies, e.g. "once streaming exists". */
  note?: string;
}

export interface Measurement {
  name: string;
  /** undefined when it could not be measured (see the figure's errors). */
  value: number | undefined;
  unit: string;
  target?: Target;
  /** Set only when there is a target and a value. */
  met?: boolean;
  note?: string;
}

export interface FigureResult {
  id: string;
  title: string;
  measurements: Measurement[];
  /** Settings, raw samples and anything else needed to read the figure. */
  details: Record<string, unknown>;
  /** What went wrong: a figure that failed outright, or a part of it (e.g. a peer) that did. */
  errors: string[];
  wallMs: number;
}

export function measurement(
  name: string,
  value: number | undefined,
  unit: string,
  extra: { target?: Target; note?: string } = {},
): Measurement {
  const { target, note } = extra;
  const known = value !== undefined && Number.isFinite(value);
  const met = target && known ? (target.op === '<' ? value < target.value : value <= target.value) : undefined;
  return {
    name,
    value: known ? value : undefined,
    unit,
    ...(target ? { target } : {}),
    ...(met !== undefined ? { met } : {}),
    ...(note ? { note } : {}),
  };
}

/** What a figure's measure function hands back; the runner adds the id, title and timing. */
export type FigureBody = Pick<FigureResult, 'measurements' | 'details'> & { errors?: string[] };

export const errorText = (err: unknown): string => (err instanceof Error ? `${err.name}: ${err.message}` : String(err));
