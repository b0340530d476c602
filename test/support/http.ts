/** A response body as tests read it: any JSON object, asserted on field by field. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

export async function json(res: Response): Promise<Json> {
  return (await res.json()) as Json;
}
