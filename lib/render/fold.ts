/** A code block of more lines than this is shown folded, with "Show all N lines" (lib/render/code-block.ts). */
export const FOLD_LINES = 30;

/** Lines of `code`, not counting the newline that ends a fence's last line. */
export function lineCount(code: string): number {
  let lines = 1;
  const end = code.endsWith('\n') ? code.length - 1 : code.length;
  for (let at = code.indexOf('\n'); at !== -1 && at < end; at = code.indexOf('\n', at + 1)) lines++;
  return lines;
}

/** Whether a code block of `code` is shown folded. */
export function folds(code: string): boolean {
  return lineCount(code) > FOLD_LINES;
}
