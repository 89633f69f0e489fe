/**
 * A tiny arithmetic reader for the dataset's calculator: numbers, + - * /, parentheses and unary
 * minus, nothing else (no eval). Throws on anything it cannot read or a division by zero.
 */
export function evaluateArithmetic(expression: string): number {
  const tokens = expression.match(/\d+(?:\.\d+)?|[-+*/()]|\S/g) ?? [];
  let at = 0;
  const peek = () => tokens[at];
  const take = () => tokens[at++];
  const primary = (): number => {
    const token = take();
    if (token === '-') return -primary();
    if (token === '(') {
      const inner = sum();
      if (take() !== ')') throw new Error('a parenthesis is not closed');
      return inner;
    }
    if (token === undefined || !/^\d/.test(token)) throw new Error(`unexpected ${token ?? 'end'}`);
    return Number(token);
  };
  const product = (): number => {
    let value = primary();
    while (peek() === '*' || peek() === '/') {
      const op = take();
      const right = primary();
      if (op === '/' && right === 0) throw new Error('division by zero');
      value = op === '*' ? value * right : value / right;
    }
    return value;
  };
  const sum = (): number => {
    let value = product();
    while (peek() === '+' || peek() === '-') value = take() === '+' ? value + product() : value - product();
    return value;
  };
  const value = sum();
  if (at !== tokens.length) throw new Error(`unexpected ${tokens[at]}`);
  return Number(value.toPrecision(12));
}
