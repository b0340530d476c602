/**
 * One text field of a parsed form. A repeated field parses to an array and a JSON body may hold
 * anything; neither is a value a form of ours sends, so both read as empty.
 */
export function formField(body: unknown, name: string): string {
  if (typeof body !== 'object' || body === null) return '';
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : '';
}
