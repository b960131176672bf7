/**
 * The tags rein puts around text another agent wrote (mail, a claimed task) or around its own
 * notes to the model, in any spelling a model might still read as the tag (`</ teammate-message>`,
 * `< /system-reminder >`, any case).
 */
const BLOCK_TAG = /<(\s*\/?\s*(?:teammate-message|system-reminder|auto-claimed)\b)/gi;

/**
 * `text` (written by an agent: mail, a task's subject or description) with every opening or
 * closing tag of rein's blocks in it escaped (`&lt;system-reminder>`), so that it cannot close
 * the block it is shown in, nor open one that reads as another agent's, rein's or the user's.
 * Pure.
 */
export function escapeBlockTags(text: string): string {
  return text.replace(BLOCK_TAG, "&lt;$1");
}
