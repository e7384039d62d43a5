/**
 * Text widths for laying out figures without a canvas. Vega's fallback estimate is 0.8 em per
 * character, about 1.5 times the real width of typical labels, so headless charts got wide empty
 * margins sized to their titles. These are the advance widths of DejaVu Sans and DejaVu Sans Bold
 * (thousandths of an em, characters 32-126; any other character counts as the widest Greek
 * lowercase letters). The figures ask for Helvetica or Arial, which are narrower: where neither is
 * installed (as on most Linux machines) DejaVu Sans draws the text, and laid out by its widths the
 * text fits either way, with a little room to spare in a browser that has Arial.
 */
const REGULAR = [
  318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636, 636, 636, 636, 636,
  636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, 1000, 684, 686, 698, 770, 632, 575, 775, 752, 295,
  295, 656, 557, 863, 748, 787, 603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838,
  500, 500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612, 635, 635, 411, 521,
  392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838,
];
const BOLD = [
  348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365, 696, 696, 696, 696, 696,
  696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 580, 1000, 774, 762, 734, 830, 683, 683, 821, 837, 372,
  372, 775, 637, 995, 837, 850, 733, 850, 770, 720, 682, 812, 774, 1103, 771, 724, 725, 457, 365, 457, 838,
  500, 500, 675, 716, 593, 716, 678, 435, 716, 712, 343, 343, 665, 343, 1042, 712, 687, 716, 716, 493, 595,
  478, 712, 652, 924, 645, 652, 582, 712, 365, 712, 838,
];
const OTHER_REGULAR = 634;
const OTHER_BOLD = 712;

/** Width in pixels of `text` in DejaVu Sans of `fontSize` pixels, bold or not. */
export function sansWidth(text: string, fontSize: number, bold: boolean): number {
  const widths = bold ? BOLD : REGULAR;
  const other = bold ? OTHER_BOLD : OTHER_REGULAR;
  let em = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    em += c >= 32 && c <= 126 ? widths[c - 32]! : other;
  }
  return (em / 1000) * fontSize;
}

/** What vega passes to a text measure: a text mark's font settings (and its length limit). */
interface TextItem {
  fontSize?: number | string | null;
  fontWeight?: number | string | null;
  limit?: number;
}

/** `vega.textMetrics.width`: the laid-out width of a text mark's text (at most its limit, if any). */
export function textMarkWidth(item: TextItem, text: unknown): number {
  const value = text == null ? '' : String(text).trim();
  const size = item.fontSize != null ? Number(item.fontSize) || 0 : 11;
  const weight = item.fontWeight;
  const bold = weight === 'bold' || weight === 'bolder' || (Number(weight) || 0) >= 600;
  const width = sansWidth(value, size, bold);
  return item.limit !== undefined && item.limit > 0 ? Math.min(width, item.limit) : width;
}
