/**
 * The A2A JSON-RPC methods the gateway knows (1.0 names and their 0.3 aliases), each with the
 * family action it needs, and the per-operation paths with the methods that agree with them.
 * Pure and frozen: built once at module load, read per request. Never parses a body.
 */
import { parseScope, type ParsedScope, type ResourceFamily } from './scopes.js';
import type { Requirement } from './compile.js';

/** The family action an A2A method needs for the path's id. */
export type A2aAction = 'run' | 'read';

/** One known A2A JSON-RPC method. */
export interface A2aMethod {
  /** The method name as the protocol spells it: also the metrics and access-log label. */
  readonly name: string;
  /** `1.0` (PascalCase names) or `0.3` (`ns/verb` names). */
  readonly version: '1.0' | '0.3';
  readonly action: A2aAction;
}

/** The per-operation A2A paths whose body may carry a JSON-RPC method. */
export type A2aPathOperation = 'message:send' | 'message:stream' | 'tasks:get' | 'tasks:cancel';

// [1.0 name, 0.3 alias or null, action]: the whole table of A2A operations that reach an entity.
const OPERATIONS: readonly (readonly [string, string | null, A2aAction])[] = [
  ['SendMessage', 'message/send', 'run'],
  ['SendStreamingMessage', 'message/stream', 'run'],
  ['CancelTask', 'tasks/cancel', 'run'],
  ['CreateTaskPushNotificationConfig', 'tasks/pushNotificationConfig/set', 'run'],
  ['DeleteTaskPushNotificationConfig', 'tasks/pushNotificationConfig/delete', 'run'],
  ['GetTask', 'tasks/get', 'read'],
  ['SubscribeToTask', 'tasks/resubscribe', 'read'],
  ['ListTasks', null, 'read'],
  ['GetExtendedAgentCard', 'agent/getAuthenticatedExtendedCard', 'read'],
  ['GetTaskPushNotificationConfig', 'tasks/pushNotificationConfig/get', 'read'],
  ['ListTaskPushNotificationConfigs', 'tasks/pushNotificationConfig/list', 'read'],
];

function buildMethods(): ReadonlyMap<string, A2aMethod> {
  const methods = new Map<string, A2aMethod>();
  for (const [name, alias, action] of OPERATIONS) {
    methods.set(name, Object.freeze({ name, version: '1.0', action }));
    if (alias !== null) methods.set(alias, Object.freeze({ name: alias, version: '0.3', action }));
  }
  return methods;
}

/**
 * Every known method by name. A name not in this map is refused by the gateway, never
 * forwarded: extension methods included.
 */
export const A2A_METHODS: ReadonlyMap<string, A2aMethod> = Object.freeze(buildMethods());

/** The methods (1.0 and 0.3 name) a per-operation path serves: a body naming another disagrees. */
export const A2A_PATH_METHODS: ReadonlyMap<A2aPathOperation, ReadonlySet<string>> = Object.freeze(
  new Map<A2aPathOperation, ReadonlySet<string>>([
    ['message:send', Object.freeze(new Set(['SendMessage', 'message/send']))],
    ['message:stream', Object.freeze(new Set(['SendStreamingMessage', 'message/stream']))],
    ['tasks:get', Object.freeze(new Set(['GetTask', 'tasks/get']))],
    ['tasks:cancel', Object.freeze(new Set(['CancelTask', 'tasks/cancel']))],
  ]),
);

/** A requirement list of one family scope, shared by every request that needs it. */
export type A2aRequirements = Readonly<
  Record<ResourceFamily, Readonly<Record<A2aAction, readonly Requirement[]>>>
>;

function requirementList(raw: string): readonly Requirement[] {
  return Object.freeze([Object.freeze({ raw, scope: parseScope(raw, '') as ParsedScope })]);
}

function familyRequirements(
  family: ResourceFamily,
): Readonly<Record<A2aAction, readonly Requirement[]>> {
  return Object.freeze({
    run: requirementList(`${family}:run`),
    read: requirementList(`${family}:read`),
  });
}

/**
 * The whole requirement of a JSON-RPC call, per family and action: `<family>:run` or
 * `<family>:read`, checked for the path's id (so `agents:a1:run` satisfies `agents:run` on
 * `…/agents/a1/v1`). The same frozen list for every request, so an identity encoded for it can
 * be reused.
 */
export const A2A_REQUIREMENTS: A2aRequirements = Object.freeze({
  agents: familyRequirements('agents'),
  teams: familyRequirements('teams'),
  workflows: familyRequirements('workflows'),
});

const SHARED: ReadonlySet<readonly Requirement[]> = new Set(
  Object.values(A2A_REQUIREMENTS).flatMap((byAction) => [byAction.run, byAction.read]),
);

/** Whether `required` is one of the shared lists of {@link A2A_REQUIREMENTS}. */
export function isA2aRequirement(required: readonly Requirement[]): boolean {
  return SHARED.has(required);
}
