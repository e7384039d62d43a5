import { createRng } from '@fb/core';

/**
 * A CSV with planted bias: income ("yes" favourable) follows education and hours, and women with a
 * degree below "Masters" lose 0.35 of their chance; race has no effect. Age is numeric (binned by the
 * audit when protected).
 */
export function syntheticCsv(n: number, seed = 7): string {
  const rng = createRng(seed);
  const educations = ['Primary', 'HS-grad', 'Bachelors', 'Masters', 'Doctorate'];
  const lines = ['person_id,sex,race,age,education,hours,income'];
  for (let i = 0; i < n; i++) {
    const sex = rng.bernoulli(0.5) ? 'Female' : 'Male';
    const race = ['A', 'B', 'C'][rng.int(0, 2)]!;
    const age = rng.int(18, 80);
    const e = rng.int(0, 4);
    const hours = Math.round(rng.uniform(10, 70));
    let p = 0.1 + 0.15 * e + (hours - 10) / 150;
    if (sex === 'Female' && e < 3) p -= 0.35;
    const income = rng.bernoulli(Math.min(0.95, Math.max(0.02, p))) ? 'yes' : 'no';
    lines.push(`id-${i},${sex},${race},${age},${educations[e]},${hours},${income}`);
  }
  return `${lines.join('\n')}\n`;
}
