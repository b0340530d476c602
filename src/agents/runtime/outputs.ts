import type { FastifyBaseLogger } from 'fastify';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { validateSchema } from '../../protocol/schemas.ts';
import type { AgentTask, JsonSchema } from './task.ts';

/**
 * What a task's answer that its output schema refuses does: nothing, a warning for the answers
 * sampled or for every one, or a thrown error (the tests).
 */
export type OutputCheck = 'off' | 'sample' | 'log' | 'throw';

// `sample` checks each task's first answers, then one in SAMPLE_EVERY: checking a page of products
// against the published schema costs more than ranking them, and an answer that drifts from its
// schema does so for a reason every answer shares (the code, the catalog), so a sample shows it.
const SAMPLE_FIRST = 100;
const SAMPLE_EVERY = 100;
const answersSeen = new WeakMap<AgentTask, number>();

function sampled(task: AgentTask): boolean {
  const seen = (answersSeen.get(task) ?? 0) + 1;
  answersSeen.set(task, seen);
  return seen <= SAMPLE_FIRST || seen % SAMPLE_EVERY === 0;
}

const ajv = new Ajv({ allErrors: false, strict: false });
addFormats.default(ajv);
const compiled = new WeakMap<JsonSchema, ValidateFunction>();

/** An answer that does not match the schema its task declares. */
export class OutputMismatch extends Error {
  constructor(task: string, problem: string) {
    super(`Task ${task} answered outside its output schema: ${problem}`);
    this.name = 'OutputMismatch';
  }
}

/** Checks a task's answer (before `replayed` is added) against its declared output schema. */
export function checkOutput(
  task: AgentTask,
  output: Record<string, unknown>,
  mode: OutputCheck,
  log: FastifyBaseLogger,
): void {
  if (mode === 'off' || !task.output || (mode === 'sample' && !sampled(task))) return;
  const problem = mismatch(task.output, output);
  if (problem === undefined) return;
  const error = new OutputMismatch(task.name, problem);
  if (mode === 'throw') throw error;
  log.warn({ task: task.name, problem }, error.message);
}

function mismatch(schema: JsonSchema, output: unknown): string | undefined {
  const ref = schema['$ref'];
  if (typeof ref === 'string' && ref.startsWith('/schemas/')) {
    const { errors } = validateSchema(ref, output);
    return errors.length === 0 ? undefined : JSON.stringify(errors[0]);
  }
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  if (validate(output)) return undefined;
  const first = validate.errors![0]!;
  return `${first.instancePath || '(answer)'} ${first.message ?? 'is invalid'}`;
}
