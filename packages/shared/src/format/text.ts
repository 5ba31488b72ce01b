/** First letter upper-cased, the rest unchanged (how field errors are shown, spec §5). */
export function capitalize(text: string): string {
  return text.length === 0 ? text : text.charAt(0).toUpperCase() + text.slice(1);
}
