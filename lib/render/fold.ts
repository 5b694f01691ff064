/** A code block of more lines than this is shown folded, with "Show all N lines" (lib/render/code-block.ts). */
export const FOLD_LINES = 30;
