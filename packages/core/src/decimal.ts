/** A plain decimal literal: optional sign, digits with an optional fraction, optional exponent. */
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * The number a decimal text spells, or NaN. Unlike `Number(text)`, hexadecimal (`0x10`), octal and
 * binary prefixes, `Infinity` and the empty string are not numbers here: a data cell `0x10` is a
 * label, never 16. Surrounding whitespace is ignored.
 */
export function parseDecimal(text: string): number {
  const t = text.trim();
  return DECIMAL.test(t) ? Number(t) : Number.NaN;
}
