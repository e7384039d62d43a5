// The part of jstat (which ships no types) that this package uses.
declare module 'jstat' {
  const jStat: {
    normal: {
      /** Normal cumulative distribution function. */
      cdf(x: number, mean: number, sd: number): number;
    };
  };
  export default jStat;
}
