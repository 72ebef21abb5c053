/**
 * Approvals as runs make them: the pending approval of a paused run, read from
 * its checkpoint (also one written before requirements were kept), and nothing for other runs.
 */
import t from 'tap';
import { pendingApprovalOf } from '../../../../src/runtime/api/approvals/records.js';
import { runEntity } from '../../../../src/runtime/engine/run.js';
import { drain, makeAgent, makeRequest, testDeps } from '../../engine/fixtures/harness.js';
import { runRecord } from '../../fixtures/runtime.js';

const agent = makeAgent({
  tools: [
    {
      name: 'add',
      description: '',
      parameters: {},
      external_execution: false,
      approval_type: 'required',
    },
  ],
});

t.test('a paused run opens one approval; an older checkpoint gives no requirements', async (t) => {
  const { result } = await drain(
    runEntity(agent, makeRequest('/tool add {"a": 1, "b": 2}'), testDeps()),
  );
  const checkpoint = JSON.parse(JSON.stringify(result.checkpoint)) as {
    run: Record<string, unknown>;
  };
  const run = runRecord({ status: 'PAUSED', checkpoint, user_id: 'alice' });
  t.match(pendingApprovalOf(run, 'Echoer', 7), {
    status: 'pending',
    tool_name: 'add',
    user_id: 'alice',
    requirements: [{ id: String }],
    created_at: 7,
  });
  delete checkpoint.run['requirements'];
  t.match(pendingApprovalOf(run, 'Echoer', 7), { requirements: [] });
  t.equal(pendingApprovalOf(runRecord(), 'Echoer', 7), null, 'a run that did not pause');
});
