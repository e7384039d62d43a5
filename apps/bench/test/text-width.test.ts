import { describe, expect, it } from 'vitest';
import { render } from '../src/report/figures.js';
import { sansWidth, textMarkWidth } from '../src/report/text-width.js';

describe('figure text widths', () => {
  it('sums DejaVu Sans character widths (hand-computed from the font metrics)', () => {
    // H 752 + i 278 = 1030 thousandths of an em; bold: H 837 + i 343 = 1180.
    expect(sansWidth('Hi', 10, false)).toBeCloseTo(10.3, 10);
    expect(sansWidth('Hi', 10, true)).toBeCloseTo(11.8, 10);
    // Characters outside ASCII count as σ: σ(η) = 634 + 390 + 634 + 390.
    expect(sansWidth('σ(η)', 10, false)).toBeCloseTo(20.48, 10);
  });

  it('reads a text mark: size, weight, and its length limit', () => {
    expect(textMarkWidth({ fontSize: 10, fontWeight: 'bold' }, 'Hi')).toBeCloseTo(11.8, 10);
    expect(textMarkWidth({ fontSize: 10, fontWeight: 700 }, 'Hi')).toBeCloseTo(11.8, 10);
    expect(textMarkWidth({}, 'Hi')).toBeCloseTo(11 * 1.03, 10);
    expect(textMarkWidth({ fontSize: 10, limit: 5 }, 'Hi')).toBe(5);
  });

  it('sizes a chart to its content, not to vega’s estimate of its title', async () => {
    const title = 'A title much longer than the chart it sits on, as a caption would be';
    const svg = await render({
      title,
      config: { font: 'Helvetica', title: { fontSize: 13, anchor: 'start' } },
      width: 100,
      height: 50,
      data: { values: [{ x: 1, y: 1 }] },
      mark: 'point',
      encoding: { x: { field: 'x', type: 'quantitative' }, y: { field: 'y', type: 'quantitative' } },
    });
    const width = Number(/<svg[^>]* width="([\d.]+)"/.exec(svg)![1]);
    // The canvas is as wide as the title by its font metrics (plus padding), far below 0.8 em a character.
    expect(width).toBeLessThan(0.8 * 13 * title.length * 0.75);
    expect(width).toBeGreaterThanOrEqual(sansWidth(title, 13, true));
  });
});
