/**
 * The runtime's OpenAPI document as a runtime app serves it: valid OpenAPI 3.1 by a
 * validator library, the AG-UI input shapes with their required fields, every
 * built-in family route and A2A route, the A2A prefix and the AG-UI switch, and each
 * section in its place.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import t, { type Test } from 'tap';
import {
  buildOpenApiDocument,
  type OpenApiDocument,
} from '../../../src/runtime/http/openapi-document.js';
import { runtimeApp } from '../fixtures/runtime.js';

/** The document a runtime built with `settings` (default: the route tests') serves. */
async function servedDocument(test: Test, settings?: unknown): Promise<OpenApiDocument> {
  const rt = runtimeApp(test, settings === undefined ? {} : { settings });
  return (await rt.app.inject({ url: '/openapi.json' })).json() as OpenApiDocument;
}

/** No agent, so no AG-UI; the A2A interface under another prefix. */
const CUSTOM = { workflows: [], a2a_prefix: '/x/agents2' };

const DOC = await servedDocument(t);
const schemas = DOC.components['schemas'] as Record<string, Record<string, unknown>>;

/** `METHOD path` of every documented operation, path parameters written `*`. */
function operations(doc: OpenApiDocument): Set<string> {
  return new Set(
    Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((m) => `${m.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '*')}`),
    ),
  );
}

t.test('the document is valid OpenAPI 3.1 (validator library), refs resolving', async (t) => {
  for (const [name, doc] of [
    ['default', DOC],
    ['custom prefix, no AG-UI', await servedDocument(t, CUSTOM)],
  ] as const) {
    const validator = new Validator();
    const result = await validator.validate(
      structuredClone(doc) as unknown as Record<string, unknown>,
    );
    t.same(result, { valid: true }, name);
    t.equal(validator.version, '3.1', name);
    t.doesNotThrow(() => validator.resolveRefs(), `${name}: every $ref resolves`);
  }
});

t.test('openapi 3.1.0 and info {title, description, version 2.7.2}', async (t) => {
  t.equal(DOC.openapi, '3.1.0');
  t.equal(DOC.info.title, 'Agno AgentOS');
  t.equal(DOC.info.version, '2.7.2');
  t.type(DOC.info.description, 'string');
  t.ok(DOC.info.description.length > 0);
});

t.test("RunAgentInput's required fields are the ones the AG-UI route requires", async (t) => {
  const input = schemas['RunAgentInput'] as { required: string[]; properties: object };
  t.same([...input.required].sort(), [
    'context',
    'forwardedProps',
    'messages',
    'runId',
    'state',
    'threadId',
    'tools',
  ]);
  t.same(Object.keys(input.properties).sort(), [
    'context',
    'forwardedProps',
    'messages',
    'parentRunId',
    'protocolVersion',
    'resume',
    'runId',
    'state',
    'threadId',
    'tools',
  ]);
});

t.test('the AG-UI input shapes name their required fields', async (t) => {
  const rows: [string, string[]][] = [
    // A message's `role` and a content part's `type` are required: the union is told apart by them.
    ['DeveloperMessage', ['content', 'id', 'role']],
    ['SystemMessage', ['content', 'id', 'role']],
    ['AssistantMessage', ['id', 'role']],
    ['UserMessage', ['content', 'id', 'role']],
    ['ToolMessage', ['content', 'id', 'role', 'toolCallId']],
    ['ActivityMessage', ['activityType', 'content', 'id', 'role']],
    ['ReasoningMessage', ['content', 'id', 'role']],
    ['ToolCall', ['function', 'id']],
    ['FunctionCall', ['arguments', 'name']],
    ['Tool', ['description', 'name']],
    ['Context', ['description', 'value']],
    ['ResumeEntry', ['interruptId', 'status']],
    ['TextInputContent', ['text', 'type']],
    ['ImageInputContent', ['source', 'type']],
    ['AudioInputContent', ['source', 'type']],
    ['VideoInputContent', ['source', 'type']],
    ['DocumentInputContent', ['source', 'type']],
    ['BinaryInputContent', ['mimeType', 'type']],
    ['InputContentDataSource', ['mimeType', 'type', 'value']],
    ['InputContentUrlSource', ['type', 'value']],
    ['ValidationError', ['loc', 'msg', 'type']],
  ];
  for (const [name, required] of rows) {
    t.same([...((schemas[name]?.['required'] as string[]) ?? [])].sort(), required, name);
  }
  t.notOk('required' in (schemas['HTTPValidationError'] as object), 'HTTPValidationError');
  t.match(schemas['UserMessage'], {
    properties: { role: { const: 'user' } },
  });
  t.match(schemas['ResumeEntry'], {
    properties: { status: { enum: ['resolved', 'cancelled'] } },
  });
  t.match(schemas['Message'], {
    discriminator: {
      propertyName: 'role',
      mapping: {
        tool: '#/components/schemas/ToolMessage',
        activity: '#/components/schemas/ActivityMessage',
      },
    },
  });
  t.equal((schemas['Message']?.['oneOf'] as unknown[]).length, 7);
  t.equal((schemas['InputContent']?.['oneOf'] as unknown[]).length, 6);
});

t.test(
  'HTTPValidationError {detail: [ValidationError]}; ValidationError loc, msg, type',
  async (t) => {
    t.same(schemas['HTTPValidationError'], {
      type: 'object',
      title: 'HTTPValidationError',
      properties: {
        detail: {
          type: 'array',
          title: 'Detail',
          items: { $ref: '#/components/schemas/ValidationError' },
        },
      },
    });
    t.match(schemas['ValidationError'], {
      properties: {
        loc: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
        msg: { type: 'string' },
        type: { type: 'string' },
        input: {},
        ctx: { type: 'object' },
      },
    });
  },
);

t.test('POST /agui: RunAgentInput body (required), 200 {}, 422 HTTPValidationError', async (t) => {
  const agui = DOC.paths['/agui']?.['post'] as Record<string, Record<string, unknown>>;
  t.same(agui['requestBody'], {
    required: true,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/RunAgentInput' } } },
  });
  t.same(agui['responses']?.['200'], {
    description: 'Successful Response',
    content: { 'application/json': { schema: {} } },
  });
  t.same(agui['responses']?.['422'], {
    description: 'Validation Error',
    content: {
      'application/json': { schema: { $ref: '#/components/schemas/HTTPValidationError' } },
    },
  });
});

/** The built-in family routes (without /service-accounts, which the gateway serves) and the A2A routes (`/a2a`). */
const SPEC_ROUTES = `
GET /config; GET /models; POST /databases/all/migrate; POST /databases/*/migrate; GET /registry
GET /components; GET /components/*; GET /components/*/configs; GET /components/*/configs/*
GET /components/*/configs/current; POST /components; POST /components/*/configs
POST /components/*/configs/*/set-current; PATCH /components/*; PATCH /components/*/configs/*
DELETE /components/*; DELETE /components/*/configs/*
GET /agents; GET /agents/*; POST /agents; PATCH /agents/*; DELETE /agents/*; POST /agents/*/runs
POST /agents/*/runs/*/continue; POST /agents/*/runs/*/cancel
GET /teams; GET /teams/*; POST /teams; PATCH /teams/*; DELETE /teams/*; POST /teams/*/runs
POST /teams/*/runs/*/continue; POST /teams/*/runs/*/cancel
GET /workflows; GET /workflows/*; POST /workflows; PATCH /workflows/*; DELETE /workflows/*
POST /workflows/*/runs; POST /workflows/*/runs/*/continue; POST /workflows/*/runs/*/cancel
GET /sessions; GET /sessions/*; POST /sessions; POST /sessions/*/rename; PATCH /sessions/*
DELETE /sessions; DELETE /sessions/*
GET /memories; GET /memories/*; GET /memory_topics; GET /user_memory_stats; POST /memories
PATCH /memories/*; POST /optimize-memories; DELETE /memories; DELETE /memories/*
GET /learnings; GET /learnings/*; POST /learnings; PATCH /learnings/*; DELETE /learnings/*
GET /knowledge/content; GET /knowledge/content/*; GET /knowledge/config; GET /knowledge/*/sources
GET /knowledge/*/sources/*/files; POST /knowledge/search; POST /knowledge/content
POST /knowledge/remote-content; PATCH /knowledge/content/*; DELETE /knowledge/content
DELETE /knowledge/content/*
GET /metrics; POST /metrics/refresh
GET /eval-runs; GET /eval-runs/*; POST /eval-runs; PATCH /eval-runs/*; DELETE /eval-runs
GET /traces; GET /traces/*; GET /trace_session_stats; POST /traces/search
GET /schedules; GET /schedules/*; GET /schedules/*/runs; GET /schedules/*/runs/*; POST /schedules
PATCH /schedules/*; POST /schedules/*/enable; POST /schedules/*/disable; POST /schedules/*/trigger
DELETE /schedules/*
GET /approvals; GET /approvals/count; GET /approvals/*; GET /approvals/*/status
POST /approvals/*/resolve; DELETE /approvals/*
GET /a2a/agents/*/.well-known/agent-card.json; POST /a2a/agents/*/v1/tasks:get
POST /a2a/agents/*/v1/message:send; POST /a2a/agents/*/v1/message:stream
POST /a2a/agents/*/v1/tasks:cancel
GET /a2a/teams/*/.well-known/agent-card.json; POST /a2a/teams/*/v1/tasks:get
POST /a2a/teams/*/v1/message:send; POST /a2a/teams/*/v1/message:stream
POST /a2a/teams/*/v1/tasks:cancel
GET /a2a/workflows/*/.well-known/agent-card.json; POST /a2a/workflows/*/v1/message:send
POST /a2a/workflows/*/v1/message:stream; POST /a2a/message/send; POST /a2a/message/stream
GET /; GET /health; GET /info; POST /agui; GET /status
`
  .split(/[;\n]/)
  .map((s) => s.trim())
  .filter((s) => s !== '');

t.test('every built-in family route and A2A route is documented', async (t) => {
  const documented = operations(DOC);
  t.same(
    SPEC_ROUTES.filter((route) => !documented.has(route)),
    [],
    'routes missing from the document',
  );
});

t.test('the A2A paths follow the configured prefix; AG-UI only when mounted', async (t) => {
  const custom = operations(await servedDocument(t, CUSTOM));
  t.ok(custom.has('POST /x/agents2/agents/*/v1/message:send'));
  t.ok(custom.has('POST /x/agents2/message/stream'));
  t.notOk(
    [...custom].some((op) => op.includes(' /a2a/')),
    'nothing under /a2a',
  );
  t.notOk(custom.has('POST /agui'));
  t.notOk(custom.has('GET /status'));
  t.notOk(custom.has('POST /x/agents2/workflows/*/v1/tasks:get'), 'workflows have no tasks');
});

t.test('operation ids are unique and path parameters are declared', async (t) => {
  const ids: string[] = [];
  const undeclared: string[] = [];
  for (const [path, item] of Object.entries(DOC.paths)) {
    const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    for (const [method, op] of Object.entries(item)) {
      ids.push(op['operationId'] as string);
      const declared = ((op['parameters'] ?? []) as { name: string; in: string }[])
        .filter((p) => p.in === 'path')
        .map((p) => p.name);
      if (declared.sort().join() !== [...names].sort().join()) {
        undeclared.push(`${method.toUpperCase()} ${path}`);
      }
    }
  }
  t.equal(new Set(ids).size, ids.length);
  t.ok(ids.includes('get_root'));
  t.ok(ids.includes('get_agents_agent_id_runs_run_id'), 'ids read as method_path');
  t.same(undeclared, []);
});

t.test('the open routes need no token; the others name the bearer scheme', async (t) => {
  t.same(DOC.security, [{ HTTPBearer: [] }]);
  for (const path of ['/', '/health', '/info']) t.same(DOC.paths[path]?.['get']?.['security'], []);
  t.match(DOC.components, { securitySchemes: { HTTPBearer: { type: 'http', scheme: 'bearer' } } });
});

t.test('each section keeps its place, whatever order its routes were registered in', async (t) => {
  const sections: string[] = [];
  for (const item of Object.values(DOC.paths)) {
    const tag = (Object.values(item)[0]?.['tags'] as string[])[0] as string;
    if (sections.at(-1) !== tag) sections.push(tag);
  }
  t.same(sections, [
    'Core',
    'Registry',
    'Database',
    'Agents',
    'Teams',
    'Workflows',
    'Sessions',
    'Components',
    'Memory',
    'Learnings',
    'Knowledge',
    'Metrics',
    'Evals',
    'Traces',
    'Schedules',
    'Approvals',
    'AGUI',
    'A2A',
  ]);
});

t.test(
  'paths: taken by tag where their section stands, the rest after the components',
  async (t) => {
    const op = (tag: string) => ({ get: { tags: [tag], responses: {} } });
    const doc = buildOpenApiDocument({
      paths: {
        '/zz-a2a': op('A2A'),
        '/zz-trace': op('Traces'),
        '/zz-untaken': op('Other'),
        '/zz-component': op('Components'),
        '/zz-core': op('Core'),
      },
      schemas: {},
    });
    t.same(Object.keys(doc.paths), [
      '/zz-core',
      '/zz-component',
      '/zz-untaken',
      '/zz-trace',
      '/zz-a2a',
    ]);
  },
);
