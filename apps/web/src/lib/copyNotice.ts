/** How long the copy notice stays on screen (spec §2, §9). */
export const COPY_NOTICE_MS = 2500;

export function copyNoticeText(text: string): string {
  return `Copied "${text}" to clipboard.`;
}
