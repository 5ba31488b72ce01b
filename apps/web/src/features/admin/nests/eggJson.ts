/** A config section (files, startup detection, logs) as the editor shows it: indented JSON. */
export function sectionText(value: unknown): string {
  if (value === null || value === undefined) return '{}';
  if (typeof value === 'string') {
    // Older eggs keep the section as JSON text; show it decoded when it is.
    try {
      return JSON.stringify(JSON.parse(value), null, 4);
    } catch {
      return value;
    }
  }
  return JSON.stringify(value, null, 4);
}

/** The editor's text back as an object, or the reason it is not one (in words). */
export function parseSection(text: string): { value: Record<string, unknown> } | { problem: string } {
  if (text.trim() === '') return { value: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { problem: `This is not valid JSON: ${(error as Error).message}` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return { problem: 'This must be a JSON object ({ … }).' };
  return { value: parsed as Record<string, unknown> };
}
