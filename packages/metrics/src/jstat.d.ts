declare module 'jstat' {
  interface ContinuousDistribution {
    cdf(x: number, ...parameters: number[]): number;
    inv(p: number, ...parameters: number[]): number;
  }
  const jStat: {
    readonly normal: ContinuousDistribution;
    readonly studentt: ContinuousDistribution;
  };
  export default jStat;
}
