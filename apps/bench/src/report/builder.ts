import { complete, type FigureSpec, render } from './figures.js';
import type { Table } from './tables.js';

/** A piece of the report, rendered the same way into report.md and report.html. */
export type Block =
  | { kind: 'heading'; level: 1 | 2; text: string }
  /** Text; `**bold**` and `_italic_` are the only markup. */
  | { kind: 'text'; text: string }
  | { kind: 'table'; table: Table; note?: string }
  | { kind: 'figure'; name: string; alt: string };

export interface Figure {
  name: string;
  /** The complete vega-lite spec, data included. */
  spec: object;
  svg: string;
}

/**
 * The report as its sections write it: the blocks in reading order, and the tables and figures
 * they show (each also written to its own files).
 */
export class ReportBuilder {
  readonly blocks: Block[] = [];
  readonly tables: Table[] = [];
  readonly figures: Figure[] = [];

  /** A heading: level 1 is the report's title, level 2 a section's. */
  heading(level: 1 | 2, text: string): void {
    this.blocks.push({ kind: 'heading', level, text });
  }

  /** A paragraph: the lines joined by single spaces. */
  text(...lines: string[]): void {
    this.blocks.push({ kind: 'text', text: lines.join(' ') });
  }

  /** A table, with an optional note printed under it. */
  addTable(t: Table, note?: string): void {
    this.tables.push(t);
    this.blocks.push(note ? { kind: 'table', table: t, note } : { kind: 'table', table: t });
  }

  /** A figure drawn from its spec and data; without data, a line that says so instead. */
  async addFigure(name: string, spec: FigureSpec, values: readonly object[], alt: string): Promise<void> {
    if (values.length === 0) {
      this.text(`_No figure "${alt}": this study has no data for it._`);
      return;
    }
    const full = complete(spec, values);
    this.figures.push({ name, spec: full, svg: await render(full) });
    this.blocks.push({ kind: 'figure', name, alt });
  }
}
