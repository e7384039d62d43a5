// The part of jstat (which ships no types) that this package uses.
declare module 'jstat' {
  const jStat: {
    studentt: {
      /** Student t cumulative distribution function with `dof` degrees of freedom. */
      cdf(x: number, dof: number): number;
    };
  };
  export default jStat;
}
