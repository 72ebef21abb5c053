/**
 * A2A errors: any thrown value as an A2A error, and the JSON-RPC (0.3, 1.0) and google.rpc.Status
 * forms of each reason.
 */
import t from 'tap';
import { HttpError } from '../../../../src/runtime/http/errors.js';
import {
  a2aErrorOf,
  A2AProtocolError,
  jsonRpcErrorOf,
  restErrorOf,
} from '../../../../src/runtime/protocols/a2a/v1-errors.js';

t.test('a thrown value as an A2A error', async (t) => {
  const own = new A2AProtocolError('TASK_NOT_FOUND', 'Task not found');
  const rows = [
    {
      name: 'an A2A error is itself',
      error: own,
      reason: 'TASK_NOT_FOUND',
      message: 'Task not found',
    },
    {
      name: 'Run not found',
      error: new HttpError(404, 'Run not found'),
      reason: 'TASK_NOT_FOUND',
      message: 'Task not found',
    },
    {
      name: 'another 404',
      error: new HttpError(404, 'Session not found'),
      reason: 'INVALID_PARAMS',
      message: 'Session not found',
    },
    { name: 'a 409', error: new HttpError(409, 'busy'), reason: 'INVALID_PARAMS', message: 'busy' },
    {
      name: 'a 5xx HttpError',
      error: new HttpError(503, 'store down'),
      reason: 'INTERNAL_ERROR',
      message: 'Internal error',
    },
    {
      name: 'anything else',
      error: new Error('secret detail'),
      reason: 'INTERNAL_ERROR',
      message: 'Internal error',
    },
  ];
  for (const row of rows) {
    const error = a2aErrorOf(row.error);
    t.equal(error.reason, row.reason, row.name);
    t.equal(error.message, row.message, `${row.name}: never the internal detail`);
  }
  t.equal(a2aErrorOf(own), own);
});

t.test('wire forms of each reason', async (t) => {
  const internal = new A2AProtocolError('INTERNAL_ERROR', 'Internal error');
  t.same(jsonRpcErrorOf(internal, '1.0'), { code: -32603, message: 'Internal error' });
  t.same(restErrorOf(internal), {
    status: 500,
    body: {
      error: {
        code: 500,
        status: 'INTERNAL',
        message: 'Internal error',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'INTERNAL_ERROR',
            domain: 'a2a-protocol.org',
          },
        ],
      },
    },
  });
  const missing = new A2AProtocolError('METHOD_NOT_FOUND', 'Method not found: x');
  t.same(jsonRpcErrorOf(missing, '1.0'), { code: -32601, message: 'Method not found: x' });
  t.equal(restErrorOf(missing).status, 404);
});
