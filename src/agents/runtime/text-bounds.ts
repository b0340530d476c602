/**
 * The longest free text a task takes where the published schema sets no bound (one line each in
 * docs/decisions.md). Generous, so that no real request meets them; a bound at all, so that the
 * work a text costs (searching it, storing it, rendering it) has a worst case. Where the
 * published schema gives a `maxLength`, the task's input repeats that one instead.
 */
export const textBounds = {
  /** Natural-language prose: a brief, a signal spec, a build message, a refine ask, a context description. */
  prose: 10_000,
  /** A human-readable name, label or tag, and the filters that look for one (name_search, name_contains). */
  name: 500,
} as const;

/** A free-text argument as the tasks' input schemas advertise it: `maxLength` and the description saying so. */
export function textInput(
  kind: keyof typeof textBounds,
  description?: string,
): { type: 'string'; maxLength: number; description: string } {
  const bound = textBounds[kind];
  const limit = `at most ${bound.toLocaleString('en-US')} characters`;
  return {
    type: 'string',
    maxLength: bound,
    description: description
      ? `${description.replace(/\.$/, '')} (${limit}).`
      : `${limit[0]!.toUpperCase()}${limit.slice(1)}.`,
  };
}
