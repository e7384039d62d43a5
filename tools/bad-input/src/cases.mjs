/** A case that must throw the typed error `code` (an ErrorCode, or an app error's class name). */
export const fails = (id, error, run) => ({ id, error, run });

/** A case that must return; `check(value)` returns null when the value is right, else what is wrong. */
export const returns = (id, run, check) => ({ id, run, check });

/** A case that may end either way: the typed error `code`, or a result `check` finds right. */
export const failsOrReturns = (id, error, run, check) => ({ id, error, run, check });

/** `problem` when `condition` is false, else null: for checks. */
export const unless = (condition, problem) => (condition ? null : problem);

/** Seconds past its budget a case may end: more is an overrun, whatever it returned or threw. */
export const BUDGET_GRACE_SECONDS = 2;

/**
 * `c` with a time budget of `maxSeconds`: the harness times its run, and a run that ends more than
 * `BUDGET_GRACE_SECONDS` past the budget is an `overrun`, even when its result or error is right.
 */
export const withBudget = (maxSeconds, c) => ({ ...c, maxSeconds });
