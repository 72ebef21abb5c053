/**
 * The A2A method table: every 1.0 method and its 0.3 alias with the action it needs, the methods
 * each per-operation path serves, and the shared requirement lists.
 */
import t from 'tap';
import {
  A2A_METHODS,
  A2A_PATH_METHODS,
  A2A_REQUIREMENTS,
  isA2aRequirement,
} from '../../src/policy/a2a-methods.js';

t.test('each method needs run or read, under its 1.0 and its 0.3 name', async (t) => {
  const rows: [string, string | null, 'run' | 'read'][] = [
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
  for (const [v1, v03, action] of rows) {
    t.same(A2A_METHODS.get(v1), { name: v1, version: '1.0', action }, v1);
    if (v03 !== null) t.same(A2A_METHODS.get(v03), { name: v03, version: '0.3', action }, v03);
  }
  t.equal(A2A_METHODS.size, 21, 'nothing else is known');
  for (const unknown of ['sendMessage', 'message/Send', 'tasks/list', '', 'toString']) {
    t.equal(A2A_METHODS.get(unknown), undefined, `${JSON.stringify(unknown)} is unknown`);
  }
  t.ok(Object.isFrozen(A2A_METHODS.get('GetTask')));
});

t.test('a per-operation path serves its own method under either name', async (t) => {
  t.same([...(A2A_PATH_METHODS.get('message:send') ?? [])], ['SendMessage', 'message/send']);
  t.same(
    [...(A2A_PATH_METHODS.get('message:stream') ?? [])],
    ['SendStreamingMessage', 'message/stream'],
  );
  t.same([...(A2A_PATH_METHODS.get('tasks:get') ?? [])], ['GetTask', 'tasks/get']);
  t.same([...(A2A_PATH_METHODS.get('tasks:cancel') ?? [])], ['CancelTask', 'tasks/cancel']);
});

t.test('the requirement lists are one shared frozen list per family and action', async (t) => {
  for (const family of ['agents', 'teams', 'workflows'] as const) {
    for (const action of ['run', 'read'] as const) {
      const list = A2A_REQUIREMENTS[family][action];
      t.same(
        list.map((r) => r.raw),
        [`${family}:${action}`],
      );
      t.match(list[0]?.scope, { resource: family, id: null, action, key: `${family}:${action}` });
      t.ok(Object.isFrozen(list));
      t.ok(isA2aRequirement(list), `${family}:${action} is shared`);
    }
  }
  t.notOk(isA2aRequirement([...A2A_REQUIREMENTS.agents.run]), 'an equal copy is not the list');
  t.notOk(isA2aRequirement([]));
});
