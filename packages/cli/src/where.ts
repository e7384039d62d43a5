import { UsageError } from './errors.js';

/**
 * `--where`: a row filter on the CSV's raw cells. Grammar (`&&` binds tighter than `||`, `!` tighter
 * than both):
 *
 *   or         := and ('||' and)*
 *   and        := unary ('&&' unary)*
 *   unary      := '!' unary | '(' or ')' | comparison
 *   comparison := column op literal | literal op column
 *   op         := '=' | '==' | '!=' | '<' | '<=' | '>' | '>='
 *   column     := name ([A-Za-z_][A-Za-z0-9_.-]*) | `any text in backquotes`
 *   literal    := number (-30, 1.5, 2e3) | "text" | 'text' (backslash escapes the quote and itself)
 *
 * A comparison with a number reads the cell as a number; a cell that is not one (empty, `NA`, text) makes
 * every such comparison false, `!=` included, as a missing value does in R's `filter`. A comparison with
 * a string compares the cell's text, trimmed, exactly; `<`, `<=`, `>`, `>=` take numbers only.
 */
export type WhereNode =
  | { readonly kind: 'or' | 'and'; readonly left: WhereNode; readonly right: WhereNode }
  | { readonly kind: 'not'; readonly operand: WhereNode }
  | {
      readonly kind: 'compare';
      readonly column: string;
      /** 1-based character position of the column name in the expression. */
      readonly at: number;
      readonly op: CompareOp;
      readonly value: number | string;
    };

export type CompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=';

type Token =
  | { kind: 'name'; text: string; at: number }
  | { kind: 'number'; value: number; text: string; at: number }
  | { kind: 'string'; value: string; text: string; at: number }
  | { kind: 'op'; text: CompareOp; at: number }
  | { kind: '&&' | '||' | '!' | '(' | ')'; text: string; at: number }
  | { kind: 'end'; text: ''; at: number };

/** The expression with a caret under position `at` (1-based), for error messages. */
function pointAt(expression: string, at: number): string {
  return `\n  ${expression}\n  ${' '.repeat(Math.max(0, at - 1))}^`;
}

function fail(expression: string, at: number, what: string): never {
  throw new UsageError(`--where: ${what} at character ${at}${pointAt(expression, at)}`, {
    option: '--where',
    expression,
    position: at,
  });
}

const NAME_START = /[A-Za-z_]/;
const NAME_PART = /[A-Za-z0-9_.-]/;
const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/;
/** A cell read as a number: decimal notation only (no hex, no `Infinity`, no empty cell). */
const DECIMAL = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;

function tokenize(expression: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < expression.length) {
    const ch = expression[i]!;
    const at = i + 1;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const two = expression.slice(i, i + 2);
    if (two === '&&' || two === '||') {
      tokens.push({ kind: two, text: two, at });
      i += 2;
    } else if (two === '==' || two === '!=' || two === '<=' || two === '>=') {
      tokens.push({ kind: 'op', text: two, at });
      i += 2;
    } else if (ch === '=') {
      tokens.push({ kind: 'op', text: '==', at });
      i++;
    } else if (ch === '<' || ch === '>') {
      tokens.push({ kind: 'op', text: ch, at });
      i++;
    } else if (ch === '!' || ch === '(' || ch === ')') {
      tokens.push({ kind: ch, text: ch, at });
      i++;
    } else if (ch === '"' || ch === "'") {
      let value = '';
      let j = i + 1;
      for (; j < expression.length && expression[j] !== ch; j++) {
        if (expression[j] === '\\' && (expression[j + 1] === ch || expression[j + 1] === '\\')) j++;
        value += expression[j];
      }
      if (j >= expression.length) fail(expression, at, `a string opened with ${ch} is not closed`);
      tokens.push({ kind: 'string', value, text: expression.slice(i, j + 1), at });
      i = j + 1;
    } else if (ch === '`') {
      const end = expression.indexOf('`', i + 1);
      if (end < 0) fail(expression, at, 'a column name opened with ` is not closed');
      const text = expression.slice(i + 1, end).trim();
      if (text === '') fail(expression, at, 'an empty column name');
      tokens.push({ kind: 'name', text, at });
      i = end + 1;
    } else if (/[-\d.]/.test(ch)) {
      const m = NUMBER.exec(expression.slice(i));
      if (!m || NAME_START.test(expression[i + m[0].length] ?? '')) {
        fail(expression, at, `"${expression.slice(i).split(/[\s()&|!=<>]/)[0]}" is not a number`);
      }
      tokens.push({ kind: 'number', value: Number(m[0]), text: m[0], at });
      i += m[0].length;
    } else if (NAME_START.test(ch)) {
      let j = i + 1;
      while (j < expression.length && NAME_PART.test(expression[j]!)) j++;
      tokens.push({ kind: 'name', text: expression.slice(i, j), at });
      i = j;
    } else {
      fail(expression, at, `unexpected "${ch}"`);
    }
  }
  tokens.push({ kind: 'end', text: '', at: expression.length + 1 });
  return tokens;
}

/** Nesting of `!` and `(` beyond this is refused (deeper would overflow the stack). */
const MAX_DEPTH = 100;

/** Parse a `--where` expression; a malformed one is a `UsageError` (OPTIONS_INVALID) naming the position. */
export function parseWhere(expression: string): WhereNode {
  if (expression.trim() === '') fail(expression, 1, 'an empty expression');
  const tokens = tokenize(expression);
  let k = 0;
  const peek = () => tokens[k]!;
  const shown = (t: Token) => (t.kind === 'end' ? 'the end' : `"${t.text}"`);

  const or = (): WhereNode => {
    let left = and();
    while (peek().kind === '||') {
      k++;
      left = { kind: 'or', left, right: and() };
    }
    return left;
  };
  const and = (): WhereNode => {
    let left = unary();
    while (peek().kind === '&&') {
      k++;
      left = { kind: 'and', left, right: unary() };
    }
    return left;
  };
  let depth = 0;
  const unary = (): WhereNode => {
    const t = peek();
    if ((t.kind === '!' || t.kind === '(') && ++depth > MAX_DEPTH) {
      fail(expression, t.at, `more than ${MAX_DEPTH} nested "!" and "("`);
    }
    if (t.kind === '!') {
      k++;
      const operand = unary();
      depth--;
      return { kind: 'not', operand };
    }
    if (t.kind === '(') {
      k++;
      const inner = or();
      depth--;
      const close = peek();
      if (close.kind !== ')')
        fail(
          expression,
          close.at,
          `expected ")" to close the "(" at character ${t.at}, found ${shown(close)}`,
        );
      k++;
      return inner;
    }
    return comparison();
  };
  const operand = (): Token => {
    const t = peek();
    if (t.kind === 'name' || t.kind === 'number' || t.kind === 'string') {
      k++;
      return t;
    }
    return fail(expression, t.at, `expected a column, a number or a quoted string, found ${shown(t)}`);
  };
  const FLIP: Record<CompareOp, CompareOp> = {
    '==': '==',
    '!=': '!=',
    '<': '>',
    '<=': '>=',
    '>': '<',
    '>=': '<=',
  };
  const comparison = (): WhereNode => {
    const left = operand();
    const opToken = peek();
    if (opToken.kind !== 'op') {
      fail(
        expression,
        opToken.at,
        `expected a comparison (=, ==, !=, <, <=, >, >=) after ${shown(left)}, found ${shown(opToken)}`,
      );
    }
    k++;
    const right = operand();
    let column: Token;
    let literal: Token;
    let op = opToken.text;
    if (left.kind === 'name' && right.kind !== 'name') {
      column = left;
      literal = right;
    } else if (right.kind === 'name' && left.kind !== 'name') {
      column = right;
      literal = left;
      op = FLIP[op];
    } else if (left.kind === 'name') {
      return fail(
        expression,
        right.at,
        `compare a column with a number or a quoted string, not with another column (${shown(right)}; quote it if it is text)`,
      );
    } else {
      return fail(expression, left.at, `a comparison needs a column, found two values`);
    }
    if (literal.kind === 'string' && op !== '==' && op !== '!=') {
      fail(
        expression,
        opToken.at,
        `"${opToken.text}" orders numbers: compare ${shown(column)} with a number`,
      );
    }
    return {
      kind: 'compare',
      column: column.text,
      at: column.at,
      op,
      value: literal.kind === 'number' ? literal.value : (literal as { value: string }).value,
    };
  };

  const tree = or();
  const rest = peek();
  if (rest.kind !== 'end') {
    fail(expression, rest.at, `expected "&&", "||" or the end, found ${shown(rest)}`);
  }
  return tree;
}

/** Every column an expression names, with the position of its first mention. */
function columnsOf(node: WhereNode, out: Map<string, number> = new Map()): Map<string, number> {
  if (node.kind === 'compare') {
    if (!out.has(node.column)) out.set(node.column, node.at);
  } else if (node.kind === 'not') columnsOf(node.operand, out);
  else {
    columnsOf(node.left, out);
    columnsOf(node.right, out);
  }
  return out;
}

/** A test of one row's cells (in header order). */
export type RowTest = (row: readonly string[]) => boolean;

/**
 * Bind a parsed (or textual) expression to a header: an unknown column is a `UsageError` naming it, its
 * position and the columns there are.
 */
export function compileWhere(
  where: string | WhereNode,
  header: readonly string[],
  expression?: string,
): RowTest {
  const text = typeof where === 'string' ? where : (expression ?? '');
  const tree = typeof where === 'string' ? parseWhere(where) : where;
  const trimmed = header.map((h) => h.trim());
  for (const [column, at] of columnsOf(tree)) {
    if (!trimmed.includes(column)) {
      throw new UsageError(
        `--where: unknown column "${column}" at character ${at} (columns: ${trimmed.join(', ')})${pointAt(text, at)}`,
        { option: '--where', expression: text, position: at, column },
      );
    }
  }
  const build = (node: WhereNode): RowTest => {
    switch (node.kind) {
      case 'or': {
        const l = build(node.left);
        const r = build(node.right);
        return (row) => l(row) || r(row);
      }
      case 'and': {
        const l = build(node.left);
        const r = build(node.right);
        return (row) => l(row) && r(row);
      }
      case 'not': {
        const inner = build(node.operand);
        return (row) => !inner(row);
      }
      case 'compare': {
        const j = trimmed.indexOf(node.column);
        const { op, value } = node;
        if (typeof value === 'string') {
          return op === '==' ? (row) => row[j]!.trim() === value : (row) => row[j]!.trim() !== value;
        }
        return (row) => {
          const cell = row[j]!.trim();
          if (!DECIMAL.test(cell)) return false;
          const v = Number(cell);
          switch (op) {
            case '==':
              return v === value;
            case '!=':
              return v !== value;
            case '<':
              return v < value;
            case '<=':
              return v <= value;
            case '>':
              return v > value;
            case '>=':
              return v >= value;
          }
        };
      }
    }
  };
  return build(tree);
}
