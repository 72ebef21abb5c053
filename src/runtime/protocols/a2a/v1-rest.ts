/**
 * HTTP+JSON 1.0 on the paths it shares with 0.3 (`…/v1/message:send|stream`, `…/v1/tasks…`):
 * which protocol a request on those paths speaks, and the 1.0 answers (`application/a2a+json`,
 * proto-JSON 1.0 shapes, errors as a google.rpc.Status body with the HTTP status). Never checks
 * scopes; tasks are found by id and confined to the caller.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { callerOf } from '../../http/caller.js';
import type { Entity } from '../../api/runs/service.js';
import { A2A_JSON, answerTaskMessage, type TaskExchangeDeps } from './exchange.js';
import { requestedVersionOf } from './jsonrpc.js';
import { a2aErrorOf, A2AProtocolError, restErrorOf } from './v1-errors.js';
import { parseJsonBody, parseV1MessageRequest, transportOf } from './request.js';
import { protoTask } from './rest.js';
import type { RunTask } from './task.js';

/** How a request to a shared path is read. */
export type SharedPathProtocol = 'jsonrpc' | 'rest-0.3' | 'rest-1.0' | 'unsupported';

/**
 * The protocol of a request to a shared path: a body with a `jsonrpc` member is JSON-RPC on a
 * path (whatever the header says); else the `A2A-Version` header decides: 1.0, or 0.3 when it is
 * absent, empty or "0.3". The body alone never decides between the REST versions.
 */
export function sharedPathProtocolOf(
  headers: FastifyRequest['headers'],
  body: unknown,
): SharedPathProtocol {
  if (transportOf(body) === 'jsonrpc') return 'jsonrpc';
  const version = requestedVersionOf(headers['a2a-version']);
  if (version === null) return 'unsupported';
  return version === '1.0' ? 'rest-1.0' : 'rest-0.3';
}

/** An HTTP+JSON 1.0 error answer. */
export function sendRestError(reply: FastifyReply, error: unknown): FastifyReply {
  const { status, body } = restErrorOf(a2aErrorOf(error));
  return reply.code(status).type(A2A_JSON).send(body);
}

/** The version error of a request whose `A2A-Version` is not served. */
export function versionNotSupported(): A2AProtocolError {
  return new A2AProtocolError(
    'VERSION_NOT_SUPPORTED',
    'A2A-Version not supported: this endpoint serves 1.0 and 0.3',
  );
}

/** `POST …/v1/message:send|stream` in HTTP+JSON 1.0. */
export async function answerRestMessage(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: TaskExchangeDeps,
  entity: Entity,
  body: unknown,
  op: 'send' | 'stream',
): Promise<unknown> {
  try {
    const parsed = parseV1MessageRequest(body, null, 'rest');
    if ((body as { tenant?: unknown }).tenant) {
      throw new A2AProtocolError('INVALID_PARAMS', 'Invalid params: no tenant is served here');
    }
    return await answerTaskMessage(request, reply, deps, { entity, parsed, version: '1.0', op });
  } catch (error) {
    return sendRestError(reply, error);
  }
}

/**
 * A task answer in HTTP+JSON 1.0 (`GET …/v1/tasks/{id}`, `POST …/v1/tasks/{id}:cancel`): the Task
 * `task` resolves to, or its error.
 */
export async function answerRestTask(
  reply: FastifyReply,
  task: () => Promise<RunTask>,
): Promise<FastifyReply> {
  try {
    return reply.type(A2A_JSON).send(protoTask(await task(), '1.0'));
  } catch (error) {
    return sendRestError(reply, error);
  }
}

/** `GET …/v1/tasks?contextId=` in HTTP+JSON 1.0. */
export async function answerRestListTasks(
  request: FastifyRequest<{ Querystring: { contextId?: string } }>,
  reply: FastifyReply,
  deps: TaskExchangeDeps,
  entity: Entity,
): Promise<FastifyReply> {
  const contextId = request.query.contextId;
  if (contextId === undefined || contextId === '') {
    return sendRestError(
      reply,
      new A2AProtocolError('INVALID_PARAMS', 'ListTasks needs a contextId'),
    );
  }
  return reply.type(A2A_JSON).send(await deps.tasks.list(entity, callerOf(request), contextId));
}

/** Reads the body of a shared message path: JSON, or null when it is not (each reader decides). */
export function sharedBodyOf(raw: unknown): unknown {
  try {
    return parseJsonBody(raw);
  } catch {
    return null;
  }
}
