/** Dashboard pages are for people, not API clients: they stay out of the OpenAPI document. */
export const hidden = { schema: { hide: true } };
