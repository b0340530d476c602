import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { AgentError } from '../../protocol/errors.ts';
import { jsonFault } from '../../protocol/json-faults.ts';
import { jsonPathLite, pointerTokens } from '../../protocol/json-path.ts';
import { faultPointer } from '../../protocol/schema-issues.ts';
import { idempotencyKeyPattern } from './idempotency/service.ts';
import { invalidArgument } from './invalid-argument.ts';
import { checkPublishedRequest } from './published-request.ts';
import type { AgentTask, JsonSchema } from './task.ts';

// Task arguments are JSON and are never coerced; the first error is reported, as for HTTP bodies.
const ajv = new Ajv({ allErrors: false, strict: false, coerceTypes: false, useDefaults: true });
addFormats.default(ajv);
const compiled = new WeakMap<JsonSchema, ValidateFunction>();

/**
 * The envelope fields every request may carry (core/context.json and `ap_major_version`), whatever
 * the task declares: the context is echoed back, the version checked before the task runs.
 */
const envelopeProperties = {
  context: {
    type: 'object',
    description: 'Opaque correlation data, echoed unchanged in the response.',
    additionalProperties: true,
  },
  ap_major_version: {
    type: 'integer',
    minimum: 1,
    maximum: 99,
    description: 'The AP major version the payload conforms to; see get_ap_capabilities.',
  },
};

const advertised = new WeakMap<AgentTask, JsonSchema>();

/** The input schema a task advertises: the envelope fields, and for mutating tasks the required `idempotency_key`. */
export function advertisedInput(task: AgentTask): JsonSchema {
  let schema = advertised.get(task);
  if (schema) return schema;
  const properties: Record<string, unknown> = {
    ...envelopeProperties,
    ...((task.input['properties'] as Record<string, unknown>) ?? {}),
  };
  let required = (task.input['required'] as string[] | undefined) ?? [];
  if (task.mutates) {
    properties['idempotency_key'] = {
      type: 'string',
      minLength: 16,
      maxLength: 255,
      pattern: idempotencyKeyPattern,
      description:
        'Client-generated, unique per request (a UUID v4 is best); retry with the same key to get the first result again.',
    };
    required = [...new Set([...required, 'idempotency_key'])];
  }
  schema = { ...task.input, properties, ...(required.length > 0 ? { required } : {}) };
  advertised.set(task, schema);
  return schema;
}

/** The envelope fields an answer carries beside the payload (core/protocol-envelope.json). */
const envelopeOutputProperties = {
  status: {
    type: 'string',
    description: "The task's status (enums/task-status.json): completed, submitted, failed, ...",
  },
  context: envelopeProperties.context,
};

/**
 * The output schema a task advertises: its own, taking the envelope's `status` and the echoed
 * `context` too when it lists its properties, so a client that checks structured content against
 * it accepts them.
 */
export function advertisedOutput(task: AgentTask): JsonSchema | undefined {
  // A long task's call answers its `{task_id, status}`; the output comes later, through get_task.
  if (task.longRunning) return undefined;
  const output = task.output;
  // A published schema's `$ref` resolves only here, and MCP wants an object schema at the root (the
  // SDK's client refuses the whole tools list otherwise): clients get its name; the runtime checks it.
  const ref = output?.['$ref'];
  if (typeof ref === 'string') return { type: 'object', description: `The protocol's published schema ${ref}.` };
  if (!output || typeof output['properties'] !== 'object' || output['properties'] === null) return output;
  return {
    ...output,
    properties: { ...envelopeOutputProperties, ...(output['properties'] as Record<string, unknown>) },
  };
}

/**
 * Checks the arguments before anything reads them (a handler, the idempotency hash, a log line):
 * text that cannot be stored or hashed (`protocol/json-faults.ts`), the task's input schema, the
 * `account` reference when the tenant resolves one (`resolvesAccounts`: core/account-ref.json),
 * then the published request schema the task declares. The error names the field at fault.
 */
export function validateArguments(task: AgentTask, args: Record<string, unknown>, resolvesAccounts = false): void {
  const fault = jsonFault(args);
  if (fault)
    throw new AgentError(
      'INVALID_REQUEST',
      `Invalid argument ${jsonPathLite(fault.path) || '(arguments)'}: ${fault.problem}.`,
      { field: jsonPathLite(fault.path) },
    );
  let validate = compiled.get(task.input);
  if (!validate) {
    validate = ajv.compile(advertisedInput(task));
    compiled.set(task.input, validate);
  }
  if (!validate(args)) {
    const error = validate.errors![0]!;
    throw invalidArgument(args, fieldOf(error), error.message ?? 'is invalid');
  }
  const account = args['account'];
  if (resolvesAccounts && typeof account === 'object' && account !== null && !Array.isArray(account))
    checkPublishedRequest('/schemas/3.0.6/core/account-ref.json', account, 'account');
  if (task.request) checkPublishedRequest(task.request, task.publishedForm ? task.publishedForm(args) : args);
}

/** The field at fault in core/error.json's JSONPath-lite: `packages[0].budget`. */
function fieldOf(error: ErrorObject): string {
  return jsonPathLite(pointerTokens(faultPointer(error)));
}
