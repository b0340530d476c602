/** Quotes an SQL identifier (schema, channel) so any name is taken literally. */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
