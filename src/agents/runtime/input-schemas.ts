/**
 * Fragments of the tasks' own input schemas (self-contained, for MCP's tools/list), which only
 * summarize the published request schemas the runner checks in full.
 */

/**
 * An id a task takes (a plan's, a list's, a grant's, a standard's...). The published schemas leave
 * ids unbounded; 255 characters is more than a real id needs, and a bound at all on what a lookup
 * by id is given.
 */
export const idInput = { type: 'string', maxLength: 255 } as const;

/** A task's `account`: the published account reference. */
export const accountRefInput = { type: 'object', description: 'core/account-ref.json.' } as const;

/** A batch a task takes: 1 to `max` objects with these properties, those in `required` present. */
export function objectsInput(max: number, properties: Record<string, unknown>, required: readonly string[] = []) {
  return {
    type: 'array',
    minItems: 1,
    maxItems: max,
    items: { type: 'object', properties, ...(required.length > 0 ? { required } : {}) },
  } as const;
}
