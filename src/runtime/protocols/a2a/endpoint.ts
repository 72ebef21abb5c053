/**
 * `POST {prefix}/{agents|teams|workflows}/{id}/v1`: one JSON-RPC endpoint per entity for every
 * A2A method, 1.0 and 0.3 names alike, each answered in its own version's shapes; refusals and
 * failures are JSON-RPC error objects in a 200. Never checks scopes (the gateway did); tasks are
 * found by id and confined to the caller.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { callerOf } from '../../http/caller.js';
import type { Entity } from '../../api/runs/service.js';
import { answerTaskMessage, type TaskExchangeDeps } from './exchange.js';
import { readRpcCall, requestedVersionOf, type RpcCall } from './jsonrpc.js';
import { parseMessageRequest, parseV1MessageRequest, type MessageRequest } from './request.js';
import { jsonRpcResult } from './task.js';
import { a2aErrorOf, A2AProtocolError, jsonRpcErrorResponse } from './v1-errors.js';
import { versionNotSupported } from './v1-rest.js';
import { protoTask } from './rest.js';

/** Answers one JSON-RPC request to an entity's `…/v1` endpoint. */
export async function answerRpc(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: TaskExchangeDeps,
  entity: Entity,
): Promise<unknown> {
  const headerVersion = requestedVersionOf(request.headers['a2a-version']);
  const read = readRpcCall(request.body);
  if (!read.ok) return jsonRpcErrorResponse(read.id, read.error, headerVersion ?? '0.3');
  const { call } = read;
  if (headerVersion === null) {
    return jsonRpcErrorResponse(call.id, versionNotSupported(), '1.0');
  }
  try {
    return await answerCall(request, reply, deps, entity, call);
  } catch (error) {
    return jsonRpcErrorResponse(call.id, a2aErrorOf(error), call.version);
  }
}

async function answerCall(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: TaskExchangeDeps,
  entity: Entity,
  call: RpcCall,
): Promise<unknown> {
  const v1 = call.version === '1.0';
  const caller = callerOf(request);
  switch (call.op) {
    case 'send':
    case 'stream': {
      const { version, op } = call;
      return answerTaskMessage(request, reply, deps, {
        entity,
        parsed: messageOf(call),
        version,
        op,
      });
    }
    case 'get':
    case 'cancel':
    case 'list': {
      if (entity.kind === 'workflow') throw unsupported('Workflows keep no tasks');
      if (call.op === 'list') {
        const contextId = call.params['contextId'];
        if (typeof contextId !== 'string' || contextId === '') {
          throw new A2AProtocolError('INVALID_PARAMS', 'ListTasks needs a contextId');
        }
        return jsonRpcResult(call.id, await deps.tasks.list(entity, caller, contextId));
      }
      const taskId = call.params['id'];
      if (typeof taskId !== 'string' || taskId === '') {
        throw new A2AProtocolError('INVALID_PARAMS', 'Task ID (params.id) is required');
      }
      const task = await deps.tasks[call.op](entity, caller, taskId);
      return jsonRpcResult(call.id, v1 ? protoTask(task, '1.0') : task);
    }
    case 'subscribe':
      throw unsupported('Subscribing to a task is not supported');
    case 'extended-card':
      throw unsupported('There is no extended agent card');
    case 'push-config':
      throw new A2AProtocolError(
        'PUSH_NOTIFICATION_NOT_SUPPORTED',
        'Push notifications are not supported',
      );
  }
}

/** The message request of a send or stream call, in its version's shape. */
function messageOf(call: RpcCall): MessageRequest {
  if (call.version === '1.0') return parseV1MessageRequest(call.params, call.id, 'jsonrpc');
  return parseMessageRequest(
    { jsonrpc: '2.0', id: call.id, method: call.method, params: call.params },
    call.method as 'message/send' | 'message/stream',
    'jsonrpc',
  );
}

/** An UNSUPPORTED_OPERATION error. */
export function unsupported(message: string): A2AProtocolError {
  return new A2AProtocolError('UNSUPPORTED_OPERATION', message);
}
