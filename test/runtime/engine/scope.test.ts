/**
 * Run scopes: the root copies the session state, children go one level deeper and share it, and
 * the common event fields follow the nesting.
 */
import t from 'tap';
import {
  createChildScope,
  createRootScope,
  scopeFields,
} from '../../../src/runtime/engine/scope.js';
import { makeRequest, testDeps } from './fixtures/harness.js';

const LINK = {
  workflow_id: 'flow',
  workflow_run_id: 'run-1',
  step_id: 'step-1',
  step_name: 'draft',
  step_index: 0,
};

t.test('the root scope copies the request’s session state', async (t) => {
  const request = makeRequest('hi', { sessionState: { nested: { n: 1 } } });
  const root = createRootScope(request, testDeps());
  t.same(root.state, { nested: { n: 1 } });
  t.not(root.state, request.sessionState);
  t.not(root.state['nested'], request.sessionState['nested'], 'a deep copy');
  t.equal(root.cancel, request.cancel, 'the same cancel flag');
  t.same(scopeFields(root), {
    run_id: 'run-1',
    session_id: 'sess-1',
    parent_run_id: null,
    nested_depth: 0,
  });
});

t.test('a child is one deeper, shares state and cancel, and carries its links', async (t) => {
  const root = createRootScope(makeRequest('hi'), testDeps());
  const child = createChildScope(root, {
    runId: 'r2',
    message: 'task',
    parentRunId: 'run-1',
    workflow: LINK,
  });
  t.equal(child.depth, 1);
  t.equal(child.state, root.state);
  t.equal(child.cancel, root.cancel);
  t.same(scopeFields(child), {
    run_id: 'r2',
    session_id: 'sess-1',
    parent_run_id: 'run-1',
    ...LINK,
    nested_depth: 1,
  });
  const grandchild = createChildScope(child, {
    runId: 'r3',
    message: 'x',
    parentRunId: null,
    workflow: null,
  });
  t.equal(grandchild.depth, 2);
  t.same(scopeFields(grandchild), {
    run_id: 'r3',
    session_id: 'sess-1',
    parent_run_id: null,
    nested_depth: 2,
  });
});
