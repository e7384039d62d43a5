/**
 * α-investing (Foster & Stine 2008) over a stream of tests. The wealth starts at W₀ (α unless given). Test j runs
 * at level αⱼ = min(W/(1 + j − k*), W/(1 + W)), where k* is the index of the last rejection (Foster
 * and Stine's policy: wealth is spread over the tests after each discovery instead of being spent on
 * the first). A rejection (a discovery) earns the payout ω = α; an acceptance costs αⱼ/(1 − αⱼ), which
 * the cap keeps within the wealth. When each p-value is valid given the earlier outcomes, the
 * expected false discoveries are at most α·E[discoveries] + W₀ (Foster and Stine's mFDR bound), so
 * under a global null at most W₀/(1 − α).
 */
export class AlphaInvesting {
  readonly alpha: number;
  wealth: number;
  tests = 0;
  discoveries = 0;
  private lastRejection = 0;

  constructor(alpha: number, initialWealth = alpha) {
    this.alpha = alpha;
    this.wealth = initialWealth;
  }

  /** The level the next test runs at. */
  nextLevel(): number {
    const j = this.tests + 1;
    return Math.min(this.wealth / (1 + j - this.lastRejection), this.wealth / (1 + this.wealth));
  }

  /** Test one p-value; returns the level used and whether the null was rejected. */
  test(pValue: number): { level: number; rejected: boolean } {
    const level = this.nextLevel();
    this.tests++;
    const rejected = level > 0 && pValue <= level;
    if (rejected) {
      this.discoveries++;
      this.lastRejection = this.tests;
      this.wealth += this.alpha;
    } else {
      this.wealth = Math.max(0, this.wealth - level / (1 - level));
    }
    return { level, rejected };
  }
}
