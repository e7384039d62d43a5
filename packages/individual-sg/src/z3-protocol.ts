// The messages between a run's `PathSolver` and the Z3 thread (`z3-thread.ts`).

/** One attribute's variable: an index on its grid (0..count-1), or a real in [lo, hi]. */
export type VariableSpec = { grid: true; count: number } | { grid: false; lo: number; hi: number };

/**
 * One path constraint on a variable: `x <= bound` when `le`, else `x > bound` for a real and
 * `x >= bound + 1` for a grid index (`bound` is then the last index on the left).
 */
export interface BoundSpec {
  variable: number;
  le: boolean;
  bound: number;
}

export type Request =
  | { id: number; type: 'open'; solver: number; variables: VariableSpec[] }
  | { id: number; type: 'solve'; solver: number; constraints: BoundSpec[] }
  | { id: number; type: 'close'; solver: number };

/**
 * The answer to request `id`. For a solve: `values[c]` is the model's value of constraint c's variable
 * (a grid index or a real), or `values` is null when the constraints are unsatisfiable.
 */
export type Reply =
  | { id: number; ok: true; values?: number[] | null }
  | { id: number; ok: false; message: string; variable?: number };

/** Sent once, when the thread has loaded Z3. */
export interface Ready {
  type: 'ready';
}
