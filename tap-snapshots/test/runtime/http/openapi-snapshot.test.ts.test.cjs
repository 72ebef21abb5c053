/* IMPORTANT
 * This snapshot file is auto-generated, but designed for humans.
 * It should be checked into source control and tracked carefully.
 * Re-generate by setting TAP_SNAPSHOT=1 and running tests.
 * Make sure to inspect the output below.  Do not ignore changes!
 */
'use strict'
exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > / 1`] = `
Object {
  "get": Object {
    "operationId": "get_root",
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/Root",
            },
          },
        },
        "description": "The runtime",
      },
    },
    "security": Array [],
    "summary": "Runtime name, id and version",
    "tags": Array [
      "Core",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /a2a/agents/{id}/.well-known/agent-card.json 1`] = `
Object {
  "get": Object {
    "operationId": "get_a2a_agents_id_well_known_agent_card_json",
    "parameters": Array [
      Object {
        "description": "The agent id",
        "in": "path",
        "name": "id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/AgentCard",
            },
          },
        },
        "description": "Agent card",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "The agent's agent card",
    "tags": Array [
      "A2A",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /a2a/agents/{id}/v1 1`] = `
Object {
  "post": Object {
    "description": "SendMessage, SendStreamingMessage, GetTask, CancelTask, ListTasks, SubscribeToTask, GetExtendedAgentCard, the push-config methods, and message/send, message/stream, tasks/get, tasks/cancel, tasks/resubscribe, agent/getAuthenticatedExtendedCard, tasks/pushNotificationConfig/*. Refusals are JSON-RPC error objects in a 200.",
    "operationId": "post_a2a_agents_id_v1",
    "parameters": Array [
      Object {
        "description": "The agent id",
        "in": "path",
        "name": "id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Client user id (ignored for authenticated callers)",
        "in": "header",
        "name": "X-User-ID",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "\`1.0\`, \`0.3\` or absent; any other: -32009",
        "in": "header",
        "name": "A2A-Version",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/JsonRpcRequest",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "type": "object",
            },
          },
          "text/event-stream": Object {
            "schema": Object {
              "type": "string",
            },
          },
        },
        "description": "A JSON-RPC response (result or error), or SSE frames of full responses",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "JSON-RPC endpoint of the agent: every A2A method, 1.0 and 0.3 names",
    "tags": Array [
      "A2A",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /a2a/agents/{id}/v1/card 1`] = `
Object {
  "get": Object {
    "operationId": "get_a2a_agents_id_v1_card",
    "parameters": Array [
      Object {
        "description": "The agent id",
        "in": "path",
        "name": "id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/AgentCard",
            },
          },
        },
        "description": "Agent card",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "The agent's agent card",
    "tags": Array [
      "A2A",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /a2a/agents/{id}/v1/message:send 1`] = `
Object {
  "post": Object {
    "operationId": "post_a2a_agents_id_v1_message_send",
    "parameters": Array [
      Object {
        "description": "The agent id",
        "in": "path",
        "name": "id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Client user id (ignored for authenticated callers)",
        "in": "header",
        "name": "X-User-ID",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "\`1.0\` for HTTP+JSON 1.0 (absent, empty or \`0.3\`: 0.3); a body with a \`jsonrpc\` member is JSON-RPC whatever it says",
        "in": "header",
        "name": "A2A-Version",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/JsonRpcRequest",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/JsonRpcResponse",
            },
          },
        },
        "description": "JSON-RPC result: the task",
      },
      "202": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/JsonRpcResponse",
            },
          },
        },
        "description": "Accepted (non-blocking): the background task",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "403": Object {
        "$ref": "#/components/responses/Forbidden",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "Send a message to the agent",
    "tags": Array [
      "A2A",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /a2a/agents/{id}/v1/message:stream 1`] = `
Object {
  "post": Object {
    "operationId": "post_a2a_agents_id_v1_message_stream",
    "parameters": Array [
      Object {
        "description": "The agent id",
        "in": "path",
        "name": "id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Client user id (ignored for authenticated callers)",
        "in": "header",
        "name": "X-User-ID",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "\`1.0\` for HTTP+JSON 1.0 (absent, empty or \`0.3\`: 0.3); a body with a \`jsonrpc\` member is JSON-RPC whatever it says",
        "in": "header",
        "name": "A2A-Version",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/JsonRpcRequest",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "text/event-stream": Object {
            "schema": Object {
              "type": "string",
            },
          },
        },
        "description": "SSE frames \`event: <TaskStatusUpdateEvent|Message|Task>\` of JSON-RPC results",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "403": Object {
        "$ref": "#/components/responses/Forbidden",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "Send a message to the agent, streaming",
    "tags": Array [
      "A2A",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /a2a/agents/{id}/v1/tasks 1`] = `
Object {
  "get": Object {
    "operationId": "get_a2a_agents_id_v1_tasks",
    "parameters": Array [
      Object {
        "description": "The agent id",
        "in": "path",
        "name": "id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "\`1.0\` for HTTP+JSON 1.0 (absent, empty or \`0.3\`: 0.3); a body with a \`jsonrpc\` member is JSON-RPC whatever it says",
        "in": "header",
        "name": "A2A-Version",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "contextId",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "type": "object",
            },
          },
        },
        "description": "\`{tasks, nextPageToken, pageSize, totalSize}\`",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "The tasks of a context (HTTP+JSON 1.0: \`A2A-Version: 1.0\`; else 404)",
    "tags": Array [
      "A2A",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /a2a/agents/{id}/v1/tasks:cancel 1`] = `
Object {
  "post": Object {
    "operationId": "post_a2a_agents_id_v1_tasks_cancel",
    "parameters": Array [
      Object {
        "description": "The agent id",
        "in": "path",
        "name": "id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/JsonRpcRequest",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/JsonRpcResponse",
            },
          },
        },
        "description": "JSON-RPC result: the task",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "Cancel a task",
    "tags": Array [
      "A2A",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /a2a/agents/{id}/v1/tasks:get 1`] = `
Object {
  "post": Object {
    "operationId": "post_a2a_agents_id_v1_tasks_get",
    "parameters": Array [
      Object {
        "description": "The agent id",
        "in": "path",
        "name": "id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/JsonRpcRequest",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/JsonRpcResponse",
            },
          },
        },
        "description": "JSON-RPC result: the task",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "Poll a task",
    "tags": Array [
      "A2A",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /a2a/agents/{id}/v1/tasks/{task_id} 1`] = `
Object {
  "get": Object {
    "operationId": "get_a2a_agents_id_v1_tasks_task_id",
    "parameters": Array [
      Object {
        "description": "The agent id",
        "in": "path",
        "name": "id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Task (run) id; POST takes \`<id>:cancel\` (1.0 also \`:subscribe\`)",
        "in": "path",
        "name": "task_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "\`1.0\` for HTTP+JSON 1.0 (absent, empty or \`0.3\`: 0.3); a body with a \`jsonrpc\` member is JSON-RPC whatever it says",
        "in": "header",
        "name": "A2A-Version",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "type": "object",
            },
          },
        },
        "description": "The task",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "A task (HTTP+JSON binding)",
    "tags": Array [
      "A2A",
    ],
  },
  "post": Object {
    "operationId": "post_a2a_agents_id_v1_tasks_task_id",
    "parameters": Array [
      Object {
        "description": "The agent id",
        "in": "path",
        "name": "id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Task (run) id; POST takes \`<id>:cancel\` (1.0 also \`:subscribe\`)",
        "in": "path",
        "name": "task_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "\`1.0\` for HTTP+JSON 1.0 (absent, empty or \`0.3\`: 0.3); a body with a \`jsonrpc\` member is JSON-RPC whatever it says",
        "in": "header",
        "name": "A2A-Version",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "type": "object",
            },
          },
        },
        "description": "The canceled task",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "Cancel a task: \`<task_id>:cancel\` (HTTP+JSON binding)",
    "tags": Array [
      "A2A",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /a2a/message/send 1`] = `
Object {
  "post": Object {
    "deprecated": true,
    "operationId": "post_a2a_message_send",
    "parameters": Array [
      Object {
        "description": "Target id when params.message.agentId is absent",
        "in": "header",
        "name": "X-Agent-ID",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Client user id (ignored for authenticated callers)",
        "in": "header",
        "name": "X-User-ID",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/JsonRpcRequest",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/JsonRpcResponse",
            },
          },
        },
        "description": "JSON-RPC result: the task",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "403": Object {
        "$ref": "#/components/responses/Forbidden",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "Dynamic dispatch: send a message to agentId / X-Agent-ID",
    "tags": Array [
      "A2A",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /a2a/message/stream 1`] = `
Object {
  "post": Object {
    "deprecated": true,
    "operationId": "post_a2a_message_stream",
    "parameters": Array [
      Object {
        "description": "Target id when params.message.agentId is absent",
        "in": "header",
        "name": "X-Agent-ID",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Client user id (ignored for authenticated callers)",
        "in": "header",
        "name": "X-User-ID",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/JsonRpcRequest",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "text/event-stream": Object {
            "schema": Object {
              "type": "string",
            },
          },
        },
        "description": "SSE frames \`event: <TaskStatusUpdateEvent|Message|Task>\` of JSON-RPC results",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "403": Object {
        "$ref": "#/components/responses/Forbidden",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "Dynamic dispatch: stream a message to agentId / X-Agent-ID",
    "tags": Array [
      "A2A",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /a2a/teams/{id}/.well-known/agent-card.json 1`] = `
Object {
  "get": Object {
    "operationId": "get_a2a_teams_id_well_known_agent_card_json",
    "parameters": Array [
      Object {
        "description": "The team id",
        "in": "path",
        "name": "id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/AgentCard",
            },
          },
        },
        "description": "Agent card",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "The team's agent card",
    "tags": Array [
      "A2A",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /a2a/teams/{id}/v1 1`] = `
Object {
  "post": Object {
    "description": "SendMessage, SendStreamingMessage, GetTask, CancelTask, ListTasks, SubscribeToTask, GetExtendedAgentCard, the push-config methods, and message/send, message/stream, tasks/get, tasks/cancel, tasks/resubscribe, agent/getAuthenticatedExtendedCard, tasks/pushNotificationConfig/*. Refusals are JSON-RPC error objects in a 200.",
    "operationId": "post_a2a_teams_id_v1",
    "parameters": Array [
      Object {
        "description": "The team id",
        "in": "path",
        "name": "id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Client user id (ignored for authenticated callers)",
        "in": "header",
        "name": "X-User-ID",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "\`1.0\`, \`0.3\` or absent; any other: -32009",
        "in": "header",
        "name": "A2A-Version",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/JsonRpcRequest",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "type": "object",
            },
          },
          "text/event-stream": Object {
            "schema": Object {
              "type": "string",
            },
          },
        },
        "description": "A JSON-RPC response (result or error), or SSE frames of full responses",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "JSON-RPC endpoint of the team: every A2A method, 1.0 and 0.3 names",
    "tags": Array [
      "A2A",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /a2a/teams/{id}/v1/card 1`] = `
Object {
  "get": Object {
    "operationId": "get_a2a_teams_id_v1_card",
    "parameters": Array [
      Object {
        "description": "The team id",
        "in": "path",
        "name": "id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/AgentCard",
            },
          },
        },
        "description": "Agent card",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "The team's agent card",
    "tags": Array [
      "A2A",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /a2a/teams/{id}/v1/message:send 1`] = `
Object {
  "post": Object {
    "operationId": "post_a2a_teams_id_v1_message_send",
    "parameters": Array [
      Object {
        "description": "The team id",
        "in": "path",
        "name": "id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Client user id (ignored for authenticated callers)",
        "in": "header",
        "name": "X-User-ID",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "\`1.0\` for HTTP+JSON 1.0 (absent, empty or \`0.3\`: 0.3); a body with a \`jsonrpc\` member is JSON-RPC whatever it says",
        "in": "header",
        "name": "A2A-Version",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/JsonRpcRequest",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/JsonRpcResponse",
            },
          },
        },
        "description": "JSON-RPC result: the task",
      },
      "202": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/JsonRpcResponse",
            },
          },
        },
        "description": "Accepted (non-blocking): the background task",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "403": Object {
        "$ref": "#/components/responses/Forbidden",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "Send a message to the team",
    "tags": Array [
      "A2A",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /a2a/teams/{id}/v1/message:stream 1`] = `
Object {
  "post": Object {
    "operationId": "post_a2a_teams_id_v1_message_stream",
    "parameters": Array [
      Object {
        "description": "The team id",
        "in": "path",
        "name": "id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Client user id (ignored for authenticated callers)",
        "in": "header",
        "name": "X-User-ID",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "\`1.0\` for HTTP+JSON 1.0 (absent, empty or \`0.3\`: 0.3); a body with a \`jsonrpc\` member is JSON-RPC whatever it says",
        "in": "header",
        "name": "A2A-Version",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/JsonRpcRequest",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "text/event-stream": Object {
            "schema": Object {
              "type": "string",
            },
          },
        },
        "description": "SSE frames \`event: <TaskStatusUpdateEvent|Message|Task>\` of JSON-RPC results",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "403": Object {
        "$ref": "#/components/responses/Forbidden",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "Send a message to the team, streaming",
    "tags": Array [
      "A2A",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /a2a/teams/{id}/v1/tasks 1`] = `
Object {
  "get": Object {
    "operationId": "get_a2a_teams_id_v1_tasks",
    "parameters": Array [
      Object {
        "description": "The team id",
        "in": "path",
        "name": "id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "\`1.0\` for HTTP+JSON 1.0 (absent, empty or \`0.3\`: 0.3); a body with a \`jsonrpc\` member is JSON-RPC whatever it says",
        "in": "header",
        "name": "A2A-Version",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "contextId",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "type": "object",
            },
          },
        },
        "description": "\`{tasks, nextPageToken, pageSize, totalSize}\`",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "The tasks of a context (HTTP+JSON 1.0: \`A2A-Version: 1.0\`; else 404)",
    "tags": Array [
      "A2A",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /a2a/teams/{id}/v1/tasks:cancel 1`] = `
Object {
  "post": Object {
    "operationId": "post_a2a_teams_id_v1_tasks_cancel",
    "parameters": Array [
      Object {
        "description": "The team id",
        "in": "path",
        "name": "id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/JsonRpcRequest",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/JsonRpcResponse",
            },
          },
        },
        "description": "JSON-RPC result: the task",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "Cancel a task",
    "tags": Array [
      "A2A",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /a2a/teams/{id}/v1/tasks:get 1`] = `
Object {
  "post": Object {
    "operationId": "post_a2a_teams_id_v1_tasks_get",
    "parameters": Array [
      Object {
        "description": "The team id",
        "in": "path",
        "name": "id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/JsonRpcRequest",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/JsonRpcResponse",
            },
          },
        },
        "description": "JSON-RPC result: the task",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "Poll a task",
    "tags": Array [
      "A2A",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /a2a/teams/{id}/v1/tasks/{task_id} 1`] = `
Object {
  "get": Object {
    "operationId": "get_a2a_teams_id_v1_tasks_task_id",
    "parameters": Array [
      Object {
        "description": "The team id",
        "in": "path",
        "name": "id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Task (run) id; POST takes \`<id>:cancel\` (1.0 also \`:subscribe\`)",
        "in": "path",
        "name": "task_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "\`1.0\` for HTTP+JSON 1.0 (absent, empty or \`0.3\`: 0.3); a body with a \`jsonrpc\` member is JSON-RPC whatever it says",
        "in": "header",
        "name": "A2A-Version",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "type": "object",
            },
          },
        },
        "description": "The task",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "A task (HTTP+JSON binding)",
    "tags": Array [
      "A2A",
    ],
  },
  "post": Object {
    "operationId": "post_a2a_teams_id_v1_tasks_task_id",
    "parameters": Array [
      Object {
        "description": "The team id",
        "in": "path",
        "name": "id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Task (run) id; POST takes \`<id>:cancel\` (1.0 also \`:subscribe\`)",
        "in": "path",
        "name": "task_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "\`1.0\` for HTTP+JSON 1.0 (absent, empty or \`0.3\`: 0.3); a body with a \`jsonrpc\` member is JSON-RPC whatever it says",
        "in": "header",
        "name": "A2A-Version",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "type": "object",
            },
          },
        },
        "description": "The canceled task",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "Cancel a task: \`<task_id>:cancel\` (HTTP+JSON binding)",
    "tags": Array [
      "A2A",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /a2a/workflows/{id}/.well-known/agent-card.json 1`] = `
Object {
  "get": Object {
    "operationId": "get_a2a_workflows_id_well_known_agent_card_json",
    "parameters": Array [
      Object {
        "description": "The workflow id",
        "in": "path",
        "name": "id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/AgentCard",
            },
          },
        },
        "description": "Agent card",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "The workflow's agent card",
    "tags": Array [
      "A2A",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /a2a/workflows/{id}/v1 1`] = `
Object {
  "post": Object {
    "description": "SendMessage, SendStreamingMessage, GetTask, CancelTask, ListTasks, SubscribeToTask, GetExtendedAgentCard, the push-config methods, and message/send, message/stream, tasks/get, tasks/cancel, tasks/resubscribe, agent/getAuthenticatedExtendedCard, tasks/pushNotificationConfig/*. Refusals are JSON-RPC error objects in a 200.",
    "operationId": "post_a2a_workflows_id_v1",
    "parameters": Array [
      Object {
        "description": "The workflow id",
        "in": "path",
        "name": "id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Client user id (ignored for authenticated callers)",
        "in": "header",
        "name": "X-User-ID",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "\`1.0\`, \`0.3\` or absent; any other: -32009",
        "in": "header",
        "name": "A2A-Version",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/JsonRpcRequest",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "type": "object",
            },
          },
          "text/event-stream": Object {
            "schema": Object {
              "type": "string",
            },
          },
        },
        "description": "A JSON-RPC response (result or error), or SSE frames of full responses",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "JSON-RPC endpoint of the workflow: every A2A method, 1.0 and 0.3 names",
    "tags": Array [
      "A2A",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /a2a/workflows/{id}/v1/card 1`] = `
Object {
  "get": Object {
    "operationId": "get_a2a_workflows_id_v1_card",
    "parameters": Array [
      Object {
        "description": "The workflow id",
        "in": "path",
        "name": "id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/AgentCard",
            },
          },
        },
        "description": "Agent card",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "The workflow's agent card",
    "tags": Array [
      "A2A",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /a2a/workflows/{id}/v1/message:send 1`] = `
Object {
  "post": Object {
    "operationId": "post_a2a_workflows_id_v1_message_send",
    "parameters": Array [
      Object {
        "description": "The workflow id",
        "in": "path",
        "name": "id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Client user id (ignored for authenticated callers)",
        "in": "header",
        "name": "X-User-ID",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "\`1.0\` for HTTP+JSON 1.0 (absent, empty or \`0.3\`: 0.3); a body with a \`jsonrpc\` member is JSON-RPC whatever it says",
        "in": "header",
        "name": "A2A-Version",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/JsonRpcRequest",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/JsonRpcResponse",
            },
          },
        },
        "description": "JSON-RPC result: the task",
      },
      "202": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/JsonRpcResponse",
            },
          },
        },
        "description": "Accepted (non-blocking): the background task",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "403": Object {
        "$ref": "#/components/responses/Forbidden",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "Send a message to the workflow",
    "tags": Array [
      "A2A",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /a2a/workflows/{id}/v1/message:stream 1`] = `
Object {
  "post": Object {
    "operationId": "post_a2a_workflows_id_v1_message_stream",
    "parameters": Array [
      Object {
        "description": "The workflow id",
        "in": "path",
        "name": "id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Client user id (ignored for authenticated callers)",
        "in": "header",
        "name": "X-User-ID",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "\`1.0\` for HTTP+JSON 1.0 (absent, empty or \`0.3\`: 0.3); a body with a \`jsonrpc\` member is JSON-RPC whatever it says",
        "in": "header",
        "name": "A2A-Version",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/JsonRpcRequest",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "text/event-stream": Object {
            "schema": Object {
              "type": "string",
            },
          },
        },
        "description": "SSE frames \`event: <TaskStatusUpdateEvent|Message|Task>\` of JSON-RPC results",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "403": Object {
        "$ref": "#/components/responses/Forbidden",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "Send a message to the workflow, streaming",
    "tags": Array [
      "A2A",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /agents 1`] = `
Object {
  "get": Object {
    "operationId": "get_agents",
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "items": Object {
                "$ref": "#/components/schemas/AgentResponse",
              },
              "type": "array",
            },
          },
        },
        "description": "The agents",
      },
    },
    "summary": "List agents (filtered to those the caller may see)",
    "tags": Array [
      "Agents",
    ],
  },
  "post": Object {
    "operationId": "post_agents",
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/EntityCreate",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "201": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/ComponentResponse",
            },
          },
        },
        "description": "Created",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "Create a agent component",
    "tags": Array [
      "Agents",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /agents/{agent_id} 1`] = `
Object {
  "delete": Object {
    "operationId": "delete_agents_agent_id",
    "parameters": Array [
      Object {
        "description": "The agent id",
        "in": "path",
        "name": "agent_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "204": Object {
        "description": "Deleted",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "409": Object {
        "$ref": "#/components/responses/Conflict",
      },
    },
    "summary": "Delete a agent component",
    "tags": Array [
      "Agents",
    ],
  },
  "get": Object {
    "operationId": "get_agents_agent_id",
    "parameters": Array [
      Object {
        "description": "The agent id",
        "in": "path",
        "name": "agent_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/AgentResponse",
            },
          },
        },
        "description": "The agent",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "One agent",
    "tags": Array [
      "Agents",
    ],
  },
  "patch": Object {
    "operationId": "patch_agents_agent_id",
    "parameters": Array [
      Object {
        "description": "The agent id",
        "in": "path",
        "name": "agent_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/EntityUpdate",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/ComponentResponse",
            },
          },
        },
        "description": "Updated",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "409": Object {
        "$ref": "#/components/responses/Conflict",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "Update a agent component",
    "tags": Array [
      "Agents",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /agents/{agent_id}/runs 1`] = `
Object {
  "get": Object {
    "operationId": "get_agents_agent_id_runs",
    "parameters": Array [
      Object {
        "description": "The agent id",
        "in": "path",
        "name": "agent_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "The session the run belongs to",
        "in": "query",
        "name": "session_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "status",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "items": Object {
                "$ref": "#/components/schemas/RunSchema",
              },
              "type": "array",
            },
          },
        },
        "description": "Runs",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "The agent's runs in a session",
    "tags": Array [
      "Agents",
    ],
  },
  "post": Object {
    "operationId": "post_agents_agent_id_runs",
    "parameters": Array [
      Object {
        "description": "The agent id",
        "in": "path",
        "name": "agent_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/x-www-form-urlencoded": Object {
          "schema": Object {
            "$ref": "#/components/schemas/RunForm",
          },
        },
        "multipart/form-data": Object {
          "schema": Object {
            "$ref": "#/components/schemas/RunForm",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/RunOutput",
            },
          },
          "text/event-stream": Object {
            "schema": Object {
              "type": "string",
            },
          },
        },
        "description": "The run: SSE events (\`event: <Name>\`) when streaming, else the run output",
      },
      "202": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/BackgroundRun",
            },
          },
        },
        "description": "Started in the background",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "403": Object {
        "$ref": "#/components/responses/Forbidden",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
      "500": Object {
        "$ref": "#/components/responses/ServerError",
      },
    },
    "summary": "Run the agent",
    "tags": Array [
      "Agents",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /agents/{agent_id}/runs/{run_id} 1`] = `
Object {
  "get": Object {
    "operationId": "get_agents_agent_id_runs_run_id",
    "parameters": Array [
      Object {
        "description": "The agent id",
        "in": "path",
        "name": "agent_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Run id",
        "in": "path",
        "name": "run_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "The session the run belongs to",
        "in": "query",
        "name": "session_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/RunOutput",
            },
          },
        },
        "description": "The run output",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "One run",
    "tags": Array [
      "Agents",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /agents/{agent_id}/runs/{run_id}/cancel 1`] = `
Object {
  "post": Object {
    "operationId": "post_agents_agent_id_runs_run_id_cancel",
    "parameters": Array [
      Object {
        "description": "The agent id",
        "in": "path",
        "name": "agent_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Run id",
        "in": "path",
        "name": "run_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Required for callers under user isolation",
        "in": "query",
        "name": "session_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "type": "object",
            },
          },
        },
        "description": "Cancellation recorded",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "Cancel a run",
    "tags": Array [
      "Agents",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /agents/{agent_id}/runs/{run_id}/continue 1`] = `
Object {
  "post": Object {
    "operationId": "post_agents_agent_id_runs_run_id_continue",
    "parameters": Array [
      Object {
        "description": "The agent id",
        "in": "path",
        "name": "agent_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Run id",
        "in": "path",
        "name": "run_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/x-www-form-urlencoded": Object {
          "schema": Object {
            "$ref": "#/components/schemas/AgentContinueForm",
          },
        },
        "multipart/form-data": Object {
          "schema": Object {
            "$ref": "#/components/schemas/AgentContinueForm",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/RunOutput",
            },
          },
          "text/event-stream": Object {
            "schema": Object {
              "type": "string",
            },
          },
        },
        "description": "The run: SSE events (\`event: <Name>\`) when streaming, else the run output",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "403": Object {
        "$ref": "#/components/responses/Forbidden",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "409": Object {
        "$ref": "#/components/responses/Conflict",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "Continue a paused run",
    "tags": Array [
      "Agents",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /agui 1`] = `
Object {
  "post": Object {
    "description": "Answers 200 with AG-UI events as \`text/event-stream\` (\`data: <JSON>\` frames). Trailing tool messages or \`resume\` entries continue a paused run on the same thread.",
    "operationId": "post_agui",
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/RunAgentInput",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {},
          },
        },
        "description": "Successful Response",
      },
      "403": Object {
        "$ref": "#/components/responses/Forbidden",
      },
      "422": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/HTTPValidationError",
            },
          },
        },
        "description": "Validation Error",
      },
    },
    "summary": "Run the bound agent or team (AG-UI)",
    "tags": Array [
      "AGUI",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /approvals 1`] = `
Object {
  "get": Object {
    "operationId": "get_approvals",
    "parameters": Array [
      Object {
        "in": "query",
        "name": "status",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "source_type",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "approval_type",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "pause_type",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "agent_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "team_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "workflow_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Filter by user id",
        "in": "query",
        "name": "user_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "schedule_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "run_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Page size",
        "in": "query",
        "name": "limit",
        "required": false,
        "schema": Object {
          "default": 100,
          "maximum": 1000,
          "minimum": 1,
          "type": "integer",
        },
      },
      Object {
        "description": "Page (1-based)",
        "in": "query",
        "name": "page",
        "required": false,
        "schema": Object {
          "default": 1,
          "maximum": 1000000,
          "minimum": 0,
          "type": "integer",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "properties": Object {
                "data": Object {
                  "items": Object {
                    "$ref": "#/components/schemas/Approval",
                  },
                  "type": "array",
                },
                "meta": Object {
                  "$ref": "#/components/schemas/PaginationInfo",
                },
              },
              "required": Array [
                "data",
                "meta",
              ],
              "type": "object",
            },
          },
        },
        "description": "Approvals",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
      "503": Object {
        "$ref": "#/components/responses/Unavailable",
      },
    },
    "summary": "List approvals",
    "tags": Array [
      "Approvals",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /approvals/{approval_id} 1`] = `
Object {
  "delete": Object {
    "operationId": "delete_approvals_approval_id",
    "parameters": Array [
      Object {
        "description": "Approval id",
        "in": "path",
        "name": "approval_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "204": Object {
        "description": "Deleted",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "500": Object {
        "$ref": "#/components/responses/ServerError",
      },
      "503": Object {
        "$ref": "#/components/responses/Unavailable",
      },
    },
    "summary": "Delete an approval",
    "tags": Array [
      "Approvals",
    ],
  },
  "get": Object {
    "operationId": "get_approvals_approval_id",
    "parameters": Array [
      Object {
        "description": "Approval id",
        "in": "path",
        "name": "approval_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/Approval",
            },
          },
        },
        "description": "The approval",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "503": Object {
        "$ref": "#/components/responses/Unavailable",
      },
    },
    "summary": "One approval",
    "tags": Array [
      "Approvals",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /approvals/{approval_id}/resolve 1`] = `
Object {
  "post": Object {
    "operationId": "post_approvals_approval_id_resolve",
    "parameters": Array [
      Object {
        "description": "Approval id",
        "in": "path",
        "name": "approval_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/ApprovalResolve",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/Approval",
            },
          },
        },
        "description": "The resolved approval",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "409": Object {
        "$ref": "#/components/responses/Conflict",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
      "503": Object {
        "$ref": "#/components/responses/Unavailable",
      },
    },
    "summary": "Approve or reject (resumes the run accordingly)",
    "tags": Array [
      "Approvals",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /approvals/{approval_id}/status 1`] = `
Object {
  "get": Object {
    "operationId": "get_approvals_approval_id_status",
    "parameters": Array [
      Object {
        "description": "Approval id",
        "in": "path",
        "name": "approval_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/ApprovalStatus",
            },
          },
        },
        "description": "The status",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "503": Object {
        "$ref": "#/components/responses/Unavailable",
      },
    },
    "summary": "An approval's status",
    "tags": Array [
      "Approvals",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /approvals/count 1`] = `
Object {
  "get": Object {
    "operationId": "get_approvals_count",
    "parameters": Array [
      Object {
        "description": "Filter by user id",
        "in": "query",
        "name": "user_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/ApprovalCount",
            },
          },
        },
        "description": "The count",
      },
      "503": Object {
        "$ref": "#/components/responses/Unavailable",
      },
    },
    "summary": "Number of pending approvals",
    "tags": Array [
      "Approvals",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /components 1`] = `
Object {
  "get": Object {
    "operationId": "get_components",
    "parameters": Array [
      Object {
        "in": "query",
        "name": "component_type",
        "required": false,
        "schema": Object {
          "enum": Array [
            "agent",
            "team",
            "workflow",
          ],
          "type": "string",
        },
      },
      Object {
        "description": "Page (1-based)",
        "in": "query",
        "name": "page",
        "required": false,
        "schema": Object {
          "default": 1,
          "minimum": 1,
          "type": "integer",
        },
      },
      Object {
        "description": "Page size",
        "in": "query",
        "name": "limit",
        "required": false,
        "schema": Object {
          "default": 20,
          "maximum": 100,
          "minimum": 1,
          "type": "integer",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "properties": Object {
                "data": Object {
                  "items": Object {
                    "$ref": "#/components/schemas/ComponentResponse",
                  },
                  "type": "array",
                },
                "meta": Object {
                  "$ref": "#/components/schemas/PaginationInfo",
                },
              },
              "required": Array [
                "data",
                "meta",
              ],
              "type": "object",
            },
          },
        },
        "description": "Components",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "List components",
    "tags": Array [
      "Components",
    ],
  },
  "post": Object {
    "operationId": "post_components",
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/ComponentCreate",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "201": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/ComponentResponse",
            },
          },
        },
        "description": "Created",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "Create a component (and its version 1 config)",
    "tags": Array [
      "Components",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /components/{component_id} 1`] = `
Object {
  "delete": Object {
    "operationId": "delete_components_component_id",
    "parameters": Array [
      Object {
        "description": "Component id",
        "in": "path",
        "name": "component_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "204": Object {
        "description": "Deleted",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "Delete a component",
    "tags": Array [
      "Components",
    ],
  },
  "get": Object {
    "operationId": "get_components_component_id",
    "parameters": Array [
      Object {
        "description": "Component id",
        "in": "path",
        "name": "component_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/ComponentResponse",
            },
          },
        },
        "description": "The component",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "One component",
    "tags": Array [
      "Components",
    ],
  },
  "patch": Object {
    "operationId": "patch_components_component_id",
    "parameters": Array [
      Object {
        "description": "Component id",
        "in": "path",
        "name": "component_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/ComponentUpdate",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/ComponentResponse",
            },
          },
        },
        "description": "Updated",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "Update a component",
    "tags": Array [
      "Components",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /components/{component_id}/configs 1`] = `
Object {
  "get": Object {
    "operationId": "get_components_component_id_configs",
    "parameters": Array [
      Object {
        "description": "Component id",
        "in": "path",
        "name": "component_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "include_config",
        "required": false,
        "schema": Object {
          "default": true,
          "type": "boolean",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "items": Object {
                "$ref": "#/components/schemas/ComponentConfigResponse",
              },
              "type": "array",
            },
          },
        },
        "description": "Configs",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "A component's config versions",
    "tags": Array [
      "Components",
    ],
  },
  "post": Object {
    "operationId": "post_components_component_id_configs",
    "parameters": Array [
      Object {
        "description": "Component id",
        "in": "path",
        "name": "component_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/ConfigCreate",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "201": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/ComponentConfigResponse",
            },
          },
        },
        "description": "Created",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "Add a config version",
    "tags": Array [
      "Components",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /components/{component_id}/configs/{version} 1`] = `
Object {
  "delete": Object {
    "operationId": "delete_components_component_id_configs_version",
    "parameters": Array [
      Object {
        "description": "Component id",
        "in": "path",
        "name": "component_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Config version (an integer)",
        "in": "path",
        "name": "version",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "204": Object {
        "description": "Deleted",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "Delete a config version (not the current one)",
    "tags": Array [
      "Components",
    ],
  },
  "get": Object {
    "operationId": "get_components_component_id_configs_version",
    "parameters": Array [
      Object {
        "description": "Component id",
        "in": "path",
        "name": "component_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Config version (an integer)",
        "in": "path",
        "name": "version",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/ComponentConfigResponse",
            },
          },
        },
        "description": "The config",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "One config version",
    "tags": Array [
      "Components",
    ],
  },
  "patch": Object {
    "operationId": "patch_components_component_id_configs_version",
    "parameters": Array [
      Object {
        "description": "Component id",
        "in": "path",
        "name": "component_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Config version (an integer)",
        "in": "path",
        "name": "version",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/ConfigUpdate",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/ComponentConfigResponse",
            },
          },
        },
        "description": "Updated",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "Update a draft config version",
    "tags": Array [
      "Components",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /components/{component_id}/configs/{version}/set-current 1`] = `
Object {
  "post": Object {
    "operationId": "post_components_component_id_configs_version_set_current",
    "parameters": Array [
      Object {
        "description": "Component id",
        "in": "path",
        "name": "component_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Config version (an integer)",
        "in": "path",
        "name": "version",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/ComponentResponse",
            },
          },
        },
        "description": "The component",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "Make a published version current",
    "tags": Array [
      "Components",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /components/{component_id}/configs/current 1`] = `
Object {
  "get": Object {
    "operationId": "get_components_component_id_configs_current",
    "parameters": Array [
      Object {
        "description": "Component id",
        "in": "path",
        "name": "component_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/ComponentConfigResponse",
            },
          },
        },
        "description": "The config",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "The current config (else the latest draft)",
    "tags": Array [
      "Components",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /config 1`] = `
Object {
  "get": Object {
    "operationId": "get_config",
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/Config",
            },
          },
        },
        "description": "The configuration",
      },
    },
    "summary": "The runtime configuration the web UI loads first",
    "tags": Array [
      "Core",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /databases/{db_id}/migrate 1`] = `
Object {
  "post": Object {
    "operationId": "post_databases_db_id_migrate",
    "parameters": Array [
      Object {
        "description": "Database id",
        "in": "path",
        "name": "db_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Migrate to this version (the latest only); also accepted as a form field",
        "in": "query",
        "name": "target_version",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/MigrateResponse",
            },
          },
        },
        "description": "Migrated",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "500": Object {
        "$ref": "#/components/responses/ServerError",
      },
    },
    "summary": "Migrate one database",
    "tags": Array [
      "Database",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /databases/all/migrate 1`] = `
Object {
  "post": Object {
    "operationId": "post_databases_all_migrate",
    "parameters": Array [
      Object {
        "description": "Migrate to this version (the latest only); also accepted as a form field",
        "in": "query",
        "name": "target_version",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/MigrateResponse",
            },
          },
        },
        "description": "Migrated",
      },
      "207": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/MigrateResponse",
            },
          },
        },
        "description": "Some databases failed",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
    },
    "summary": "Migrate every database",
    "tags": Array [
      "Database",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /eval-runs 1`] = `
Object {
  "delete": Object {
    "operationId": "delete_eval_runs",
    "parameters": Array [
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Table name (ignored)",
        "in": "query",
        "name": "table",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/EvalsDelete",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "204": Object {
        "description": "Deleted",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "Delete eval runs",
    "tags": Array [
      "Evals",
    ],
  },
  "get": Object {
    "operationId": "get_eval_runs",
    "parameters": Array [
      Object {
        "in": "query",
        "name": "agent_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "team_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "workflow_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "model_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "type",
        "required": false,
        "schema": Object {
          "enum": Array [
            "agent",
            "team",
            "workflow",
          ],
          "type": "string",
        },
      },
      Object {
        "description": "Comma-separated eval types",
        "in": "query",
        "name": "eval_types",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Page size",
        "in": "query",
        "name": "limit",
        "required": false,
        "schema": Object {
          "default": 20,
          "maximum": 100,
          "minimum": 1,
          "type": "integer",
        },
      },
      Object {
        "description": "Page (1-based)",
        "in": "query",
        "name": "page",
        "required": false,
        "schema": Object {
          "default": 1,
          "maximum": 1000000,
          "minimum": 0,
          "type": "integer",
        },
      },
      Object {
        "description": "Column to sort by",
        "in": "query",
        "name": "sort_by",
        "required": false,
        "schema": Object {
          "default": "created_at",
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "sort_order",
        "required": false,
        "schema": Object {
          "default": "desc",
          "enum": Array [
            "asc",
            "desc",
          ],
          "type": "string",
        },
      },
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Table name (ignored)",
        "in": "query",
        "name": "table",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "properties": Object {
                "data": Object {
                  "items": Object {
                    "$ref": "#/components/schemas/EvalRun",
                  },
                  "type": "array",
                },
                "meta": Object {
                  "$ref": "#/components/schemas/PaginationInfo",
                },
              },
              "required": Array [
                "data",
                "meta",
              ],
              "type": "object",
            },
          },
        },
        "description": "Eval runs",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "List eval runs",
    "tags": Array [
      "Evals",
    ],
  },
  "post": Object {
    "operationId": "post_eval_runs",
    "parameters": Array [
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Table name (ignored)",
        "in": "query",
        "name": "table",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/EvalCreate",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/EvalRun",
            },
          },
        },
        "description": "The eval run",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "Run an eval against an agent or team",
    "tags": Array [
      "Evals",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /eval-runs/{eval_run_id} 1`] = `
Object {
  "get": Object {
    "operationId": "get_eval_runs_eval_run_id",
    "parameters": Array [
      Object {
        "description": "Eval run id",
        "in": "path",
        "name": "eval_run_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Table name (ignored)",
        "in": "query",
        "name": "table",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/EvalRun",
            },
          },
        },
        "description": "The eval run",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "One eval run",
    "tags": Array [
      "Evals",
    ],
  },
  "patch": Object {
    "operationId": "patch_eval_runs_eval_run_id",
    "parameters": Array [
      Object {
        "description": "Eval run id",
        "in": "path",
        "name": "eval_run_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Table name (ignored)",
        "in": "query",
        "name": "table",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/EvalUpdate",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/EvalRun",
            },
          },
        },
        "description": "Renamed",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "Rename an eval run",
    "tags": Array [
      "Evals",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /health 1`] = `
Object {
  "get": Object {
    "operationId": "get_health",
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/Health",
            },
          },
        },
        "description": "Healthy",
      },
    },
    "security": Array [],
    "summary": "Health check",
    "tags": Array [
      "Core",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /info 1`] = `
Object {
  "get": Object {
    "operationId": "get_info",
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/Info",
            },
          },
        },
        "description": "Runtime information",
      },
    },
    "security": Array [],
    "summary": "What the runtime hosts and how it authenticates",
    "tags": Array [
      "Core",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /knowledge/{knowledge_id}/sources 1`] = `
Object {
  "get": Object {
    "operationId": "get_knowledge_knowledge_id_sources",
    "parameters": Array [
      Object {
        "description": "Knowledge base id",
        "in": "path",
        "name": "knowledge_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "items": Object {
                "$ref": "#/components/schemas/KnowledgeSource",
              },
              "type": "array",
            },
          },
        },
        "description": "Sources",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "Remote content sources of a knowledge base",
    "tags": Array [
      "Knowledge",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /knowledge/{knowledge_id}/sources/{source_id}/files 1`] = `
Object {
  "get": Object {
    "operationId": "get_knowledge_knowledge_id_sources_source_id_files",
    "parameters": Array [
      Object {
        "description": "Knowledge base id",
        "in": "path",
        "name": "knowledge_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Source id",
        "in": "path",
        "name": "source_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "prefix",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "delimiter",
        "required": false,
        "schema": Object {
          "default": "/",
          "type": "string",
        },
      },
      Object {
        "description": "Page size",
        "in": "query",
        "name": "limit",
        "required": false,
        "schema": Object {
          "default": 100,
          "maximum": 1000,
          "minimum": 1,
          "type": "integer",
        },
      },
      Object {
        "description": "Page (1-based)",
        "in": "query",
        "name": "page",
        "required": false,
        "schema": Object {
          "default": 1,
          "maximum": 1000000,
          "minimum": 1,
          "type": "integer",
        },
      },
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/SourceFiles",
            },
          },
        },
        "description": "Folders and files",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "Files of a remote content source",
    "tags": Array [
      "Knowledge",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /knowledge/config 1`] = `
Object {
  "get": Object {
    "operationId": "get_knowledge_config",
    "parameters": Array [
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Knowledge base id",
        "in": "query",
        "name": "knowledge_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/KnowledgeConfig",
            },
          },
        },
        "description": "The configuration",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "Readers, chunkers, filters and vector stores",
    "tags": Array [
      "Knowledge",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /knowledge/content 1`] = `
Object {
  "delete": Object {
    "operationId": "delete_knowledge_content",
    "parameters": Array [
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Knowledge base id",
        "in": "query",
        "name": "knowledge_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "const": "success",
              "type": "string",
            },
          },
        },
        "description": "\\"success\\"",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "Delete all content",
    "tags": Array [
      "Knowledge",
    ],
  },
  "get": Object {
    "operationId": "get_knowledge_content",
    "parameters": Array [
      Object {
        "description": "Page size",
        "in": "query",
        "name": "limit",
        "required": false,
        "schema": Object {
          "default": 20,
          "maximum": 1000,
          "minimum": 1,
          "type": "integer",
        },
      },
      Object {
        "description": "Page (1-based)",
        "in": "query",
        "name": "page",
        "required": false,
        "schema": Object {
          "default": 1,
          "maximum": 1000000,
          "minimum": 0,
          "type": "integer",
        },
      },
      Object {
        "description": "Column to sort by",
        "in": "query",
        "name": "sort_by",
        "required": false,
        "schema": Object {
          "default": "created_at",
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "sort_order",
        "required": false,
        "schema": Object {
          "default": "desc",
          "enum": Array [
            "asc",
            "desc",
          ],
          "type": "string",
        },
      },
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Knowledge base id",
        "in": "query",
        "name": "knowledge_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "properties": Object {
                "data": Object {
                  "items": Object {
                    "$ref": "#/components/schemas/Content",
                  },
                  "type": "array",
                },
                "meta": Object {
                  "$ref": "#/components/schemas/PaginationInfo",
                },
              },
              "required": Array [
                "data",
                "meta",
              ],
              "type": "object",
            },
          },
        },
        "description": "Content",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "List content",
    "tags": Array [
      "Knowledge",
    ],
  },
  "post": Object {
    "operationId": "post_knowledge_content",
    "parameters": Array [
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Knowledge base id",
        "in": "query",
        "name": "knowledge_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "multipart/form-data": Object {
          "schema": Object {
            "$ref": "#/components/schemas/ContentForm",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "202": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/ContentAccepted",
            },
          },
        },
        "description": "Accepted",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "Add content (text, a file or URLs); processed in the background",
    "tags": Array [
      "Knowledge",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /knowledge/content/{content_id} 1`] = `
Object {
  "delete": Object {
    "operationId": "delete_knowledge_content_content_id",
    "parameters": Array [
      Object {
        "description": "Content id",
        "in": "path",
        "name": "content_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Knowledge base id",
        "in": "query",
        "name": "knowledge_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "properties": Object {
                "id": Object {
                  "type": "string",
                },
              },
              "required": Array [
                "id",
              ],
              "type": "object",
            },
          },
        },
        "description": "Deleted",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "Delete one content entry",
    "tags": Array [
      "Knowledge",
    ],
  },
  "get": Object {
    "operationId": "get_knowledge_content_content_id",
    "parameters": Array [
      Object {
        "description": "Content id",
        "in": "path",
        "name": "content_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Knowledge base id",
        "in": "query",
        "name": "knowledge_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/Content",
            },
          },
        },
        "description": "The content",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "One content entry",
    "tags": Array [
      "Knowledge",
    ],
  },
  "patch": Object {
    "operationId": "patch_knowledge_content_content_id",
    "parameters": Array [
      Object {
        "description": "Content id",
        "in": "path",
        "name": "content_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Knowledge base id",
        "in": "query",
        "name": "knowledge_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/x-www-form-urlencoded": Object {
          "schema": Object {
            "$ref": "#/components/schemas/ContentUpdateForm",
          },
        },
        "multipart/form-data": Object {
          "schema": Object {
            "$ref": "#/components/schemas/ContentUpdateForm",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/Content",
            },
          },
        },
        "description": "Updated",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "Update content metadata",
    "tags": Array [
      "Knowledge",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /knowledge/content/{content_id}/status 1`] = `
Object {
  "get": Object {
    "operationId": "get_knowledge_content_content_id_status",
    "parameters": Array [
      Object {
        "description": "Content id",
        "in": "path",
        "name": "content_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Knowledge base id",
        "in": "query",
        "name": "knowledge_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/ContentStatus",
            },
          },
        },
        "description": "The status",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "Processing status of one content entry",
    "tags": Array [
      "Knowledge",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /knowledge/remote-content 1`] = `
Object {
  "post": Object {
    "operationId": "post_knowledge_remote_content",
    "parameters": Array [
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Knowledge base id",
        "in": "query",
        "name": "knowledge_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/x-www-form-urlencoded": Object {
          "schema": Object {
            "$ref": "#/components/schemas/RemoteContentForm",
          },
        },
        "multipart/form-data": Object {
          "schema": Object {
            "$ref": "#/components/schemas/RemoteContentForm",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "202": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/ContentAccepted",
            },
          },
        },
        "description": "Accepted",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "Add content from a configured remote source",
    "tags": Array [
      "Knowledge",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /knowledge/search 1`] = `
Object {
  "post": Object {
    "operationId": "post_knowledge_search",
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/KnowledgeSearchRequest",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "properties": Object {
                "data": Object {
                  "items": Object {
                    "$ref": "#/components/schemas/KnowledgeSearchResult",
                  },
                  "type": "array",
                },
                "meta": Object {
                  "$ref": "#/components/schemas/PaginationInfo",
                },
              },
              "required": Array [
                "data",
                "meta",
              ],
              "type": "object",
            },
          },
        },
        "description": "Ranked results",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "Search the knowledge base (ranked)",
    "tags": Array [
      "Knowledge",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /learnings 1`] = `
Object {
  "get": Object {
    "operationId": "get_learnings",
    "parameters": Array [
      Object {
        "in": "query",
        "name": "learning_type",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Filter by user id",
        "in": "query",
        "name": "user_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "agent_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "team_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "session_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "namespace",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "entity_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "entity_type",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Page size",
        "in": "query",
        "name": "limit",
        "required": false,
        "schema": Object {
          "default": 100,
          "maximum": 1000,
          "minimum": 1,
          "type": "integer",
        },
      },
      Object {
        "description": "Page (1-based)",
        "in": "query",
        "name": "page",
        "required": false,
        "schema": Object {
          "default": 1,
          "maximum": 1000000,
          "minimum": 0,
          "type": "integer",
        },
      },
      Object {
        "description": "Column to sort by",
        "in": "query",
        "name": "sort_by",
        "required": false,
        "schema": Object {
          "default": "updated_at",
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "sort_order",
        "required": false,
        "schema": Object {
          "default": "desc",
          "enum": Array [
            "asc",
            "desc",
          ],
          "type": "string",
        },
      },
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Table name (ignored)",
        "in": "query",
        "name": "table",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "properties": Object {
                "data": Object {
                  "items": Object {
                    "$ref": "#/components/schemas/Learning",
                  },
                  "type": "array",
                },
                "meta": Object {
                  "$ref": "#/components/schemas/PaginationInfo",
                },
              },
              "required": Array [
                "data",
                "meta",
              ],
              "type": "object",
            },
          },
        },
        "description": "Learnings",
      },
      "403": Object {
        "$ref": "#/components/responses/Forbidden",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "List learnings (own and ownerless under user isolation)",
    "tags": Array [
      "Learnings",
    ],
  },
  "post": Object {
    "operationId": "post_learnings",
    "parameters": Array [
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Table name (ignored)",
        "in": "query",
        "name": "table",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/LearningCreate",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "201": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/Learning",
            },
          },
        },
        "description": "Created",
      },
      "403": Object {
        "$ref": "#/components/responses/Forbidden",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "409": Object {
        "$ref": "#/components/responses/Conflict",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "Create a learning",
    "tags": Array [
      "Learnings",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /learnings/{learning_id} 1`] = `
Object {
  "delete": Object {
    "operationId": "delete_learnings_learning_id",
    "parameters": Array [
      Object {
        "description": "Learning id",
        "in": "path",
        "name": "learning_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Table name (ignored)",
        "in": "query",
        "name": "table",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "204": Object {
        "description": "Deleted",
      },
      "403": Object {
        "$ref": "#/components/responses/Forbidden",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "Delete a learning",
    "tags": Array [
      "Learnings",
    ],
  },
  "get": Object {
    "operationId": "get_learnings_learning_id",
    "parameters": Array [
      Object {
        "description": "Learning id",
        "in": "path",
        "name": "learning_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Table name (ignored)",
        "in": "query",
        "name": "table",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/Learning",
            },
          },
        },
        "description": "The learning",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "One learning",
    "tags": Array [
      "Learnings",
    ],
  },
  "patch": Object {
    "operationId": "patch_learnings_learning_id",
    "parameters": Array [
      Object {
        "description": "Learning id",
        "in": "path",
        "name": "learning_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Table name (ignored)",
        "in": "query",
        "name": "table",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/LearningUpdate",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/Learning",
            },
          },
        },
        "description": "Updated",
      },
      "403": Object {
        "$ref": "#/components/responses/Forbidden",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "Update a learning (given fields replace)",
    "tags": Array [
      "Learnings",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /learnings/users 1`] = `
Object {
  "get": Object {
    "operationId": "get_learnings_users",
    "parameters": Array [
      Object {
        "in": "query",
        "name": "learning_type",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Filter by user id",
        "in": "query",
        "name": "user_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Page size",
        "in": "query",
        "name": "limit",
        "required": false,
        "schema": Object {
          "default": 20,
          "maximum": 1000,
          "minimum": 1,
          "type": "integer",
        },
      },
      Object {
        "description": "Page (1-based)",
        "in": "query",
        "name": "page",
        "required": false,
        "schema": Object {
          "default": 1,
          "maximum": 1000000,
          "minimum": 0,
          "type": "integer",
        },
      },
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Table name (ignored)",
        "in": "query",
        "name": "table",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "properties": Object {
                "data": Object {
                  "items": Object {
                    "$ref": "#/components/schemas/LearningUser",
                  },
                  "type": "array",
                },
                "meta": Object {
                  "$ref": "#/components/schemas/PaginationInfo",
                },
              },
              "required": Array [
                "data",
                "meta",
              ],
              "type": "object",
            },
          },
        },
        "description": "Users",
      },
      "403": Object {
        "$ref": "#/components/responses/Forbidden",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "Users with learnings",
    "tags": Array [
      "Learnings",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /learnings/users/{user_id} 1`] = `
Object {
  "delete": Object {
    "operationId": "delete_learnings_users_user_id",
    "parameters": Array [
      Object {
        "description": "User id",
        "in": "path",
        "name": "user_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "learning_type",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Table name (ignored)",
        "in": "query",
        "name": "table",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "204": Object {
        "description": "Deleted",
      },
      "403": Object {
        "$ref": "#/components/responses/Forbidden",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "Delete a user's learnings",
    "tags": Array [
      "Learnings",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /memories 1`] = `
Object {
  "delete": Object {
    "operationId": "delete_memories",
    "parameters": Array [
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Table name (ignored)",
        "in": "query",
        "name": "table",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/MemoriesDelete",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "204": Object {
        "description": "Deleted",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "Delete memories",
    "tags": Array [
      "Memory",
    ],
  },
  "get": Object {
    "operationId": "get_memories",
    "parameters": Array [
      Object {
        "description": "Filter by user id",
        "in": "query",
        "name": "user_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "agent_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "team_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Comma-separated topics",
        "in": "query",
        "name": "topics",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Substring of the memory",
        "in": "query",
        "name": "search_content",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Page size",
        "in": "query",
        "name": "limit",
        "required": false,
        "schema": Object {
          "default": 20,
          "maximum": 1000,
          "minimum": 1,
          "type": "integer",
        },
      },
      Object {
        "description": "Page (1-based)",
        "in": "query",
        "name": "page",
        "required": false,
        "schema": Object {
          "default": 1,
          "maximum": 1000000,
          "minimum": 0,
          "type": "integer",
        },
      },
      Object {
        "description": "Column to sort by",
        "in": "query",
        "name": "sort_by",
        "required": false,
        "schema": Object {
          "default": "updated_at",
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "sort_order",
        "required": false,
        "schema": Object {
          "default": "desc",
          "enum": Array [
            "asc",
            "desc",
          ],
          "type": "string",
        },
      },
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Table name (ignored)",
        "in": "query",
        "name": "table",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "properties": Object {
                "data": Object {
                  "items": Object {
                    "$ref": "#/components/schemas/UserMemory",
                  },
                  "type": "array",
                },
                "meta": Object {
                  "$ref": "#/components/schemas/PaginationInfo",
                },
              },
              "required": Array [
                "data",
                "meta",
              ],
              "type": "object",
            },
          },
        },
        "description": "Memories",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "List memories",
    "tags": Array [
      "Memory",
    ],
  },
  "post": Object {
    "operationId": "post_memories",
    "parameters": Array [
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Table name (ignored)",
        "in": "query",
        "name": "table",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/MemoryWrite",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/UserMemory",
            },
          },
        },
        "description": "Created",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "Create a memory",
    "tags": Array [
      "Memory",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /memories/{memory_id} 1`] = `
Object {
  "delete": Object {
    "operationId": "delete_memories_memory_id",
    "parameters": Array [
      Object {
        "description": "Memory id",
        "in": "path",
        "name": "memory_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Filter by user id",
        "in": "query",
        "name": "user_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Table name (ignored)",
        "in": "query",
        "name": "table",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "204": Object {
        "description": "Deleted",
      },
    },
    "summary": "Delete a memory",
    "tags": Array [
      "Memory",
    ],
  },
  "get": Object {
    "operationId": "get_memories_memory_id",
    "parameters": Array [
      Object {
        "description": "Memory id",
        "in": "path",
        "name": "memory_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Filter by user id",
        "in": "query",
        "name": "user_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Table name (ignored)",
        "in": "query",
        "name": "table",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/UserMemory",
            },
          },
        },
        "description": "The memory",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "One memory",
    "tags": Array [
      "Memory",
    ],
  },
  "patch": Object {
    "operationId": "patch_memories_memory_id",
    "parameters": Array [
      Object {
        "description": "Memory id",
        "in": "path",
        "name": "memory_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Table name (ignored)",
        "in": "query",
        "name": "table",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/MemoryWrite",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/UserMemory",
            },
          },
        },
        "description": "Updated",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "Replace a memory",
    "tags": Array [
      "Memory",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /memory_topics 1`] = `
Object {
  "get": Object {
    "operationId": "get_memory_topics",
    "parameters": Array [
      Object {
        "description": "Filter by user id",
        "in": "query",
        "name": "user_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Table name (ignored)",
        "in": "query",
        "name": "table",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "items": Object {
                "type": "string",
              },
              "type": "array",
            },
          },
        },
        "description": "Topics",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "The topics of the memories",
    "tags": Array [
      "Memory",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /metrics 1`] = `
Object {
  "get": Object {
    "operationId": "get_metrics",
    "parameters": Array [
      Object {
        "description": "YYYY-MM-DD",
        "in": "query",
        "name": "starting_date",
        "required": false,
        "schema": Object {
          "format": "date",
          "type": "string",
        },
      },
      Object {
        "description": "YYYY-MM-DD",
        "in": "query",
        "name": "ending_date",
        "required": false,
        "schema": Object {
          "format": "date",
          "type": "string",
        },
      },
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Table name (ignored)",
        "in": "query",
        "name": "table",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/MetricsResponse",
            },
          },
        },
        "description": "Daily metrics",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
      "500": Object {
        "$ref": "#/components/responses/ServerError",
      },
    },
    "summary": "Daily aggregates of runs, sessions, users and tokens",
    "tags": Array [
      "Metrics",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /metrics/refresh 1`] = `
Object {
  "post": Object {
    "operationId": "post_metrics_refresh",
    "parameters": Array [
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Table name (ignored)",
        "in": "query",
        "name": "table",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "items": Object {
                "$ref": "#/components/schemas/DayMetrics",
              },
              "type": "array",
            },
          },
        },
        "description": "Daily metrics",
      },
      "500": Object {
        "$ref": "#/components/responses/ServerError",
      },
    },
    "summary": "Recompute the daily aggregates from stored sessions and runs",
    "tags": Array [
      "Metrics",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /models 1`] = `
Object {
  "get": Object {
    "operationId": "get_models",
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "items": Object {
                "$ref": "#/components/schemas/Model",
              },
              "type": "array",
            },
          },
        },
        "description": "Unique (id, provider) pairs",
      },
    },
    "summary": "The models of the configured agents and teams",
    "tags": Array [
      "Core",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /optimize-memories 1`] = `
Object {
  "post": Object {
    "operationId": "post_optimize_memories",
    "parameters": Array [
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Table name (ignored)",
        "in": "query",
        "name": "table",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/OptimizeMemoriesRequest",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/OptimizeMemoriesResponse",
            },
          },
        },
        "description": "The optimized memories",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "Merge a user's memories into fewer",
    "tags": Array [
      "Memory",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /registry 1`] = `
Object {
  "get": Object {
    "operationId": "get_registry",
    "parameters": Array [
      Object {
        "description": "tool, model, db, agent, team, …",
        "in": "query",
        "name": "resource_type",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Case-insensitive substring of the name",
        "in": "query",
        "name": "name",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Page (1-based)",
        "in": "query",
        "name": "page",
        "required": false,
        "schema": Object {
          "default": 1,
          "minimum": 1,
          "type": "integer",
        },
      },
      Object {
        "description": "Page size",
        "in": "query",
        "name": "limit",
        "required": false,
        "schema": Object {
          "default": 20,
          "maximum": 100,
          "minimum": 1,
          "type": "integer",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "properties": Object {
                "data": Object {
                  "items": Object {
                    "$ref": "#/components/schemas/RegistryEntry",
                  },
                  "type": "array",
                },
                "meta": Object {
                  "$ref": "#/components/schemas/PaginationInfo",
                },
              },
              "required": Array [
                "data",
                "meta",
              ],
              "type": "object",
            },
          },
        },
        "description": "Registry entries",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
      "503": Object {
        "$ref": "#/components/responses/Unavailable",
      },
    },
    "summary": "Tools, models, databases and entities the runtime knows",
    "tags": Array [
      "Registry",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /schedules 1`] = `
Object {
  "get": Object {
    "operationId": "get_schedules",
    "parameters": Array [
      Object {
        "in": "query",
        "name": "enabled",
        "required": false,
        "schema": Object {
          "type": "boolean",
        },
      },
      Object {
        "description": "Page size",
        "in": "query",
        "name": "limit",
        "required": false,
        "schema": Object {
          "default": 100,
          "maximum": 1000,
          "minimum": 1,
          "type": "integer",
        },
      },
      Object {
        "description": "Page (1-based)",
        "in": "query",
        "name": "page",
        "required": false,
        "schema": Object {
          "default": 1,
          "minimum": 1,
          "type": "integer",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "properties": Object {
                "data": Object {
                  "items": Object {
                    "$ref": "#/components/schemas/Schedule",
                  },
                  "type": "array",
                },
                "meta": Object {
                  "$ref": "#/components/schemas/PaginationInfo",
                },
              },
              "required": Array [
                "data",
                "meta",
              ],
              "type": "object",
            },
          },
        },
        "description": "Schedules",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
      "503": Object {
        "$ref": "#/components/responses/Unavailable",
      },
    },
    "summary": "List schedules",
    "tags": Array [
      "Schedules",
    ],
  },
  "post": Object {
    "operationId": "post_schedules",
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/ScheduleCreate",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "201": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/Schedule",
            },
          },
        },
        "description": "Created",
      },
      "409": Object {
        "$ref": "#/components/responses/Conflict",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
      "503": Object {
        "$ref": "#/components/responses/Unavailable",
      },
    },
    "summary": "Create a schedule",
    "tags": Array [
      "Schedules",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /schedules/{schedule_id} 1`] = `
Object {
  "delete": Object {
    "operationId": "delete_schedules_schedule_id",
    "parameters": Array [
      Object {
        "description": "Schedule id",
        "in": "path",
        "name": "schedule_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "204": Object {
        "description": "Deleted",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "503": Object {
        "$ref": "#/components/responses/Unavailable",
      },
    },
    "summary": "Delete a schedule",
    "tags": Array [
      "Schedules",
    ],
  },
  "get": Object {
    "operationId": "get_schedules_schedule_id",
    "parameters": Array [
      Object {
        "description": "Schedule id",
        "in": "path",
        "name": "schedule_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/Schedule",
            },
          },
        },
        "description": "The schedule",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "503": Object {
        "$ref": "#/components/responses/Unavailable",
      },
    },
    "summary": "One schedule",
    "tags": Array [
      "Schedules",
    ],
  },
  "patch": Object {
    "operationId": "patch_schedules_schedule_id",
    "parameters": Array [
      Object {
        "description": "Schedule id",
        "in": "path",
        "name": "schedule_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/ScheduleUpdate",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/Schedule",
            },
          },
        },
        "description": "Updated",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "409": Object {
        "$ref": "#/components/responses/Conflict",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
      "503": Object {
        "$ref": "#/components/responses/Unavailable",
      },
    },
    "summary": "Update a schedule",
    "tags": Array [
      "Schedules",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /schedules/{schedule_id}/disable 1`] = `
Object {
  "post": Object {
    "operationId": "post_schedules_schedule_id_disable",
    "parameters": Array [
      Object {
        "description": "Schedule id",
        "in": "path",
        "name": "schedule_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/ScheduleState",
            },
          },
        },
        "description": "Disabled",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "503": Object {
        "$ref": "#/components/responses/Unavailable",
      },
    },
    "summary": "Disable a schedule",
    "tags": Array [
      "Schedules",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /schedules/{schedule_id}/enable 1`] = `
Object {
  "post": Object {
    "operationId": "post_schedules_schedule_id_enable",
    "parameters": Array [
      Object {
        "description": "Schedule id",
        "in": "path",
        "name": "schedule_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/ScheduleState",
            },
          },
        },
        "description": "Enabled",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "503": Object {
        "$ref": "#/components/responses/Unavailable",
      },
    },
    "summary": "Enable a schedule",
    "tags": Array [
      "Schedules",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /schedules/{schedule_id}/runs 1`] = `
Object {
  "get": Object {
    "operationId": "get_schedules_schedule_id_runs",
    "parameters": Array [
      Object {
        "description": "Schedule id",
        "in": "path",
        "name": "schedule_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Page size",
        "in": "query",
        "name": "limit",
        "required": false,
        "schema": Object {
          "default": 100,
          "maximum": 1000,
          "minimum": 1,
          "type": "integer",
        },
      },
      Object {
        "description": "Page (1-based)",
        "in": "query",
        "name": "page",
        "required": false,
        "schema": Object {
          "default": 1,
          "minimum": 1,
          "type": "integer",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "properties": Object {
                "data": Object {
                  "items": Object {
                    "$ref": "#/components/schemas/ScheduleRun",
                  },
                  "type": "array",
                },
                "meta": Object {
                  "$ref": "#/components/schemas/PaginationInfo",
                },
              },
              "required": Array [
                "data",
                "meta",
              ],
              "type": "object",
            },
          },
        },
        "description": "Schedule runs",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
      "503": Object {
        "$ref": "#/components/responses/Unavailable",
      },
    },
    "summary": "A schedule's run history",
    "tags": Array [
      "Schedules",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /schedules/{schedule_id}/runs/{run_id} 1`] = `
Object {
  "get": Object {
    "operationId": "get_schedules_schedule_id_runs_run_id",
    "parameters": Array [
      Object {
        "description": "Schedule id",
        "in": "path",
        "name": "schedule_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Schedule run id",
        "in": "path",
        "name": "run_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/ScheduleRun",
            },
          },
        },
        "description": "The schedule run",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "503": Object {
        "$ref": "#/components/responses/Unavailable",
      },
    },
    "summary": "One schedule run",
    "tags": Array [
      "Schedules",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /schedules/{schedule_id}/trigger 1`] = `
Object {
  "post": Object {
    "operationId": "post_schedules_schedule_id_trigger",
    "parameters": Array [
      Object {
        "description": "Schedule id",
        "in": "path",
        "name": "schedule_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/ScheduleRun",
            },
          },
        },
        "description": "The schedule run",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "409": Object {
        "$ref": "#/components/responses/Conflict",
      },
      "503": Object {
        "$ref": "#/components/responses/Unavailable",
      },
    },
    "summary": "Run a schedule now (through the gateway) and wait for it",
    "tags": Array [
      "Schedules",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /sessions 1`] = `
Object {
  "delete": Object {
    "operationId": "delete_sessions",
    "parameters": Array [
      Object {
        "description": "Filter by user id",
        "in": "query",
        "name": "user_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Table name (ignored)",
        "in": "query",
        "name": "table",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/SessionsDelete",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "204": Object {
        "description": "Deleted",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "Delete sessions",
    "tags": Array [
      "Sessions",
    ],
  },
  "get": Object {
    "operationId": "get_sessions",
    "parameters": Array [
      Object {
        "description": "Session kind",
        "in": "query",
        "name": "type",
        "required": false,
        "schema": Object {
          "enum": Array [
            "agent",
            "team",
            "workflow",
          ],
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "component_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Filter by user id",
        "in": "query",
        "name": "user_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Substring of the name",
        "in": "query",
        "name": "session_name",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Page size",
        "in": "query",
        "name": "limit",
        "required": false,
        "schema": Object {
          "default": 20,
          "maximum": 100,
          "minimum": 1,
          "type": "integer",
        },
      },
      Object {
        "description": "Page (1-based)",
        "in": "query",
        "name": "page",
        "required": false,
        "schema": Object {
          "default": 1,
          "maximum": 1000000,
          "minimum": 0,
          "type": "integer",
        },
      },
      Object {
        "description": "Column to sort by",
        "in": "query",
        "name": "sort_by",
        "required": false,
        "schema": Object {
          "default": "created_at",
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "sort_order",
        "required": false,
        "schema": Object {
          "default": "desc",
          "enum": Array [
            "asc",
            "desc",
          ],
          "type": "string",
        },
      },
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Table name (ignored)",
        "in": "query",
        "name": "table",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "properties": Object {
                "data": Object {
                  "items": Object {
                    "$ref": "#/components/schemas/SessionSchema",
                  },
                  "type": "array",
                },
                "meta": Object {
                  "$ref": "#/components/schemas/PaginationInfo",
                },
              },
              "required": Array [
                "data",
                "meta",
              ],
              "type": "object",
            },
          },
        },
        "description": "Sessions",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "List sessions",
    "tags": Array [
      "Sessions",
    ],
  },
  "post": Object {
    "operationId": "post_sessions",
    "parameters": Array [
      Object {
        "description": "Session kind",
        "in": "query",
        "name": "type",
        "required": false,
        "schema": Object {
          "enum": Array [
            "agent",
            "team",
            "workflow",
          ],
          "type": "string",
        },
      },
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/SessionCreate",
          },
        },
      },
      "required": false,
    },
    "responses": Object {
      "201": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/SessionDetail",
            },
          },
        },
        "description": "Created",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "Create a session",
    "tags": Array [
      "Sessions",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /sessions/{session_id} 1`] = `
Object {
  "delete": Object {
    "operationId": "delete_sessions_session_id",
    "parameters": Array [
      Object {
        "description": "Session id",
        "in": "path",
        "name": "session_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Filter by user id",
        "in": "query",
        "name": "user_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Table name (ignored)",
        "in": "query",
        "name": "table",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "204": Object {
        "description": "Deleted (also when unknown)",
      },
    },
    "summary": "Delete a session",
    "tags": Array [
      "Sessions",
    ],
  },
  "get": Object {
    "operationId": "get_sessions_session_id",
    "parameters": Array [
      Object {
        "description": "Session id",
        "in": "path",
        "name": "session_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Session kind",
        "in": "query",
        "name": "type",
        "required": false,
        "schema": Object {
          "enum": Array [
            "agent",
            "team",
            "workflow",
          ],
          "type": "string",
        },
      },
      Object {
        "description": "Filter by user id",
        "in": "query",
        "name": "user_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Table name (ignored)",
        "in": "query",
        "name": "table",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/SessionDetail",
            },
          },
        },
        "description": "The session",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "One session",
    "tags": Array [
      "Sessions",
    ],
  },
  "patch": Object {
    "operationId": "patch_sessions_session_id",
    "parameters": Array [
      Object {
        "description": "Session id",
        "in": "path",
        "name": "session_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Session kind",
        "in": "query",
        "name": "type",
        "required": false,
        "schema": Object {
          "enum": Array [
            "agent",
            "team",
            "workflow",
          ],
          "type": "string",
        },
      },
      Object {
        "description": "Filter by user id",
        "in": "query",
        "name": "user_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Table name (ignored)",
        "in": "query",
        "name": "table",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/SessionUpdate",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/SessionDetail",
            },
          },
        },
        "description": "Updated",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "Update a session (given fields replace)",
    "tags": Array [
      "Sessions",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /sessions/{session_id}/rename 1`] = `
Object {
  "post": Object {
    "operationId": "post_sessions_session_id_rename",
    "parameters": Array [
      Object {
        "description": "Session id",
        "in": "path",
        "name": "session_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Session kind",
        "in": "query",
        "name": "type",
        "required": false,
        "schema": Object {
          "enum": Array [
            "agent",
            "team",
            "workflow",
          ],
          "type": "string",
        },
      },
      Object {
        "description": "Filter by user id",
        "in": "query",
        "name": "user_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Table name (ignored)",
        "in": "query",
        "name": "table",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/SessionRename",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/SessionDetail",
            },
          },
        },
        "description": "Renamed",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "Rename a session",
    "tags": Array [
      "Sessions",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /sessions/{session_id}/runs 1`] = `
Object {
  "get": Object {
    "operationId": "get_sessions_session_id_runs",
    "parameters": Array [
      Object {
        "description": "Session id",
        "in": "path",
        "name": "session_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Session kind",
        "in": "query",
        "name": "type",
        "required": false,
        "schema": Object {
          "enum": Array [
            "agent",
            "team",
            "workflow",
          ],
          "type": "string",
        },
      },
      Object {
        "description": "Filter by user id",
        "in": "query",
        "name": "user_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Epoch seconds",
        "in": "query",
        "name": "created_after",
        "required": false,
        "schema": Object {
          "type": "integer",
        },
      },
      Object {
        "description": "Epoch seconds",
        "in": "query",
        "name": "created_before",
        "required": false,
        "schema": Object {
          "type": "integer",
        },
      },
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Table name (ignored)",
        "in": "query",
        "name": "table",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "items": Object {
                "$ref": "#/components/schemas/RunSchema",
              },
              "type": "array",
            },
          },
        },
        "description": "Runs",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "A session's runs",
    "tags": Array [
      "Sessions",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /sessions/{session_id}/runs/{run_id} 1`] = `
Object {
  "get": Object {
    "operationId": "get_sessions_session_id_runs_run_id",
    "parameters": Array [
      Object {
        "description": "Session id",
        "in": "path",
        "name": "session_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Run id",
        "in": "path",
        "name": "run_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Session kind",
        "in": "query",
        "name": "type",
        "required": false,
        "schema": Object {
          "enum": Array [
            "agent",
            "team",
            "workflow",
          ],
          "type": "string",
        },
      },
      Object {
        "description": "Filter by user id",
        "in": "query",
        "name": "user_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Table name (ignored)",
        "in": "query",
        "name": "table",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/RunSchema",
            },
          },
        },
        "description": "The run",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "One run of a session",
    "tags": Array [
      "Sessions",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /status 1`] = `
Object {
  "get": Object {
    "operationId": "get_status",
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/Status",
            },
          },
        },
        "description": "Available",
      },
    },
    "summary": "AG-UI interface status",
    "tags": Array [
      "AGUI",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /teams 1`] = `
Object {
  "get": Object {
    "operationId": "get_teams",
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "items": Object {
                "$ref": "#/components/schemas/TeamResponse",
              },
              "type": "array",
            },
          },
        },
        "description": "The teams",
      },
    },
    "summary": "List teams (filtered to those the caller may see)",
    "tags": Array [
      "Teams",
    ],
  },
  "post": Object {
    "operationId": "post_teams",
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/EntityCreate",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "201": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/ComponentResponse",
            },
          },
        },
        "description": "Created",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "Create a team component",
    "tags": Array [
      "Teams",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /teams/{team_id} 1`] = `
Object {
  "delete": Object {
    "operationId": "delete_teams_team_id",
    "parameters": Array [
      Object {
        "description": "The team id",
        "in": "path",
        "name": "team_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "204": Object {
        "description": "Deleted",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "409": Object {
        "$ref": "#/components/responses/Conflict",
      },
    },
    "summary": "Delete a team component",
    "tags": Array [
      "Teams",
    ],
  },
  "get": Object {
    "operationId": "get_teams_team_id",
    "parameters": Array [
      Object {
        "description": "The team id",
        "in": "path",
        "name": "team_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/TeamResponse",
            },
          },
        },
        "description": "The team",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "One team",
    "tags": Array [
      "Teams",
    ],
  },
  "patch": Object {
    "operationId": "patch_teams_team_id",
    "parameters": Array [
      Object {
        "description": "The team id",
        "in": "path",
        "name": "team_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/EntityUpdate",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/ComponentResponse",
            },
          },
        },
        "description": "Updated",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "409": Object {
        "$ref": "#/components/responses/Conflict",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "Update a team component",
    "tags": Array [
      "Teams",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /teams/{team_id}/runs 1`] = `
Object {
  "get": Object {
    "operationId": "get_teams_team_id_runs",
    "parameters": Array [
      Object {
        "description": "The team id",
        "in": "path",
        "name": "team_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "The session the run belongs to",
        "in": "query",
        "name": "session_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "status",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "items": Object {
                "$ref": "#/components/schemas/RunSchema",
              },
              "type": "array",
            },
          },
        },
        "description": "Runs",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "The team's runs in a session",
    "tags": Array [
      "Teams",
    ],
  },
  "post": Object {
    "operationId": "post_teams_team_id_runs",
    "parameters": Array [
      Object {
        "description": "The team id",
        "in": "path",
        "name": "team_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/x-www-form-urlencoded": Object {
          "schema": Object {
            "$ref": "#/components/schemas/RunForm",
          },
        },
        "multipart/form-data": Object {
          "schema": Object {
            "$ref": "#/components/schemas/RunForm",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/RunOutput",
            },
          },
          "text/event-stream": Object {
            "schema": Object {
              "type": "string",
            },
          },
        },
        "description": "The run: SSE events (\`event: <Name>\`) when streaming, else the run output",
      },
      "202": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/BackgroundRun",
            },
          },
        },
        "description": "Started in the background",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "403": Object {
        "$ref": "#/components/responses/Forbidden",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
      "500": Object {
        "$ref": "#/components/responses/ServerError",
      },
    },
    "summary": "Run the team",
    "tags": Array [
      "Teams",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /teams/{team_id}/runs/{run_id} 1`] = `
Object {
  "get": Object {
    "operationId": "get_teams_team_id_runs_run_id",
    "parameters": Array [
      Object {
        "description": "The team id",
        "in": "path",
        "name": "team_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Run id",
        "in": "path",
        "name": "run_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "The session the run belongs to",
        "in": "query",
        "name": "session_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/RunOutput",
            },
          },
        },
        "description": "The run output",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "One run",
    "tags": Array [
      "Teams",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /teams/{team_id}/runs/{run_id}/cancel 1`] = `
Object {
  "post": Object {
    "operationId": "post_teams_team_id_runs_run_id_cancel",
    "parameters": Array [
      Object {
        "description": "The team id",
        "in": "path",
        "name": "team_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Run id",
        "in": "path",
        "name": "run_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Required for callers under user isolation",
        "in": "query",
        "name": "session_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "type": "object",
            },
          },
        },
        "description": "Cancellation recorded",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "Cancel a run",
    "tags": Array [
      "Teams",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /teams/{team_id}/runs/{run_id}/continue 1`] = `
Object {
  "post": Object {
    "operationId": "post_teams_team_id_runs_run_id_continue",
    "parameters": Array [
      Object {
        "description": "The team id",
        "in": "path",
        "name": "team_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Run id",
        "in": "path",
        "name": "run_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/x-www-form-urlencoded": Object {
          "schema": Object {
            "$ref": "#/components/schemas/TeamContinueForm",
          },
        },
        "multipart/form-data": Object {
          "schema": Object {
            "$ref": "#/components/schemas/TeamContinueForm",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/RunOutput",
            },
          },
          "text/event-stream": Object {
            "schema": Object {
              "type": "string",
            },
          },
        },
        "description": "The run: SSE events (\`event: <Name>\`) when streaming, else the run output",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "403": Object {
        "$ref": "#/components/responses/Forbidden",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "409": Object {
        "$ref": "#/components/responses/Conflict",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "Continue a paused run",
    "tags": Array [
      "Teams",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /trace_session_stats 1`] = `
Object {
  "get": Object {
    "operationId": "get_trace_session_stats",
    "parameters": Array [
      Object {
        "description": "Filter by user id",
        "in": "query",
        "name": "user_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "agent_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "team_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "workflow_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "ISO-8601 with a zone",
        "in": "query",
        "name": "start_time",
        "required": false,
        "schema": Object {
          "format": "date-time",
          "type": "string",
        },
      },
      Object {
        "description": "ISO-8601 with a zone",
        "in": "query",
        "name": "end_time",
        "required": false,
        "schema": Object {
          "format": "date-time",
          "type": "string",
        },
      },
      Object {
        "description": "Page (1-based)",
        "in": "query",
        "name": "page",
        "required": false,
        "schema": Object {
          "default": 1,
          "maximum": 1000000,
          "minimum": 0,
          "type": "integer",
        },
      },
      Object {
        "description": "Page size",
        "in": "query",
        "name": "limit",
        "required": false,
        "schema": Object {
          "default": 20,
          "maximum": 100,
          "minimum": 1,
          "type": "integer",
        },
      },
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "properties": Object {
                "data": Object {
                  "items": Object {
                    "$ref": "#/components/schemas/TraceSessionStats",
                  },
                  "type": "array",
                },
                "meta": Object {
                  "$ref": "#/components/schemas/PaginationInfo",
                },
              },
              "required": Array [
                "data",
                "meta",
              ],
              "type": "object",
            },
          },
        },
        "description": "Per-session statistics",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "Trace counts per session",
    "tags": Array [
      "Traces",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /traces 1`] = `
Object {
  "get": Object {
    "operationId": "get_traces",
    "parameters": Array [
      Object {
        "in": "query",
        "name": "run_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "session_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Filter by user id",
        "in": "query",
        "name": "user_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "agent_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "team_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "workflow_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "status",
        "required": false,
        "schema": Object {
          "enum": Array [
            "OK",
            "ERROR",
            "UNSET",
          ],
          "type": "string",
        },
      },
      Object {
        "description": "ISO-8601 with a zone",
        "in": "query",
        "name": "start_time",
        "required": false,
        "schema": Object {
          "format": "date-time",
          "type": "string",
        },
      },
      Object {
        "description": "ISO-8601 with a zone",
        "in": "query",
        "name": "end_time",
        "required": false,
        "schema": Object {
          "format": "date-time",
          "type": "string",
        },
      },
      Object {
        "description": "Page (1-based)",
        "in": "query",
        "name": "page",
        "required": false,
        "schema": Object {
          "default": 1,
          "maximum": 1000000,
          "minimum": 0,
          "type": "integer",
        },
      },
      Object {
        "description": "Page size",
        "in": "query",
        "name": "limit",
        "required": false,
        "schema": Object {
          "default": 20,
          "maximum": 100,
          "minimum": 1,
          "type": "integer",
        },
      },
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "properties": Object {
                "data": Object {
                  "items": Object {
                    "$ref": "#/components/schemas/TraceSummary",
                  },
                  "type": "array",
                },
                "meta": Object {
                  "$ref": "#/components/schemas/PaginationInfo",
                },
              },
              "required": Array [
                "data",
                "meta",
              ],
              "type": "object",
            },
          },
        },
        "description": "Traces",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "List traces",
    "tags": Array [
      "Traces",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /traces/{trace_id} 1`] = `
Object {
  "get": Object {
    "operationId": "get_traces_trace_id",
    "parameters": Array [
      Object {
        "description": "Trace id",
        "in": "path",
        "name": "trace_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "span_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "run_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "anyOf": Array [
                Object {
                  "$ref": "#/components/schemas/TraceDetail",
                },
                Object {
                  "$ref": "#/components/schemas/TraceNode",
                },
              ],
            },
          },
        },
        "description": "The trace, or the span when span_id is given",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "One trace with its span tree (or one span)",
    "tags": Array [
      "Traces",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /traces/filter-schema 1`] = `
Object {
  "get": Object {
    "operationId": "get_traces_filter_schema",
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/TraceFilterSchema",
            },
          },
        },
        "description": "Filter schema",
      },
    },
    "summary": "The fields and operators POST /traces/search accepts",
    "tags": Array [
      "Traces",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /traces/search 1`] = `
Object {
  "post": Object {
    "operationId": "post_traces_search",
    "parameters": Array [
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/TraceSearchRequest",
          },
        },
      },
      "required": false,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "properties": Object {
                "data": Object {
                  "items": Object {
                    "anyOf": Array [
                      Object {
                        "$ref": "#/components/schemas/TraceDetail",
                      },
                      Object {
                        "$ref": "#/components/schemas/TraceSessionStats",
                      },
                    ],
                  },
                  "type": "array",
                },
                "meta": Object {
                  "$ref": "#/components/schemas/PaginationInfo",
                },
              },
              "required": Array [
                "data",
                "meta",
              ],
              "type": "object",
            },
          },
        },
        "description": "Traces (group_by=run) or per-session statistics (group_by=session)",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "Search traces with a filter expression",
    "tags": Array [
      "Traces",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /user_memory_stats 1`] = `
Object {
  "get": Object {
    "operationId": "get_user_memory_stats",
    "parameters": Array [
      Object {
        "description": "Page size",
        "in": "query",
        "name": "limit",
        "required": false,
        "schema": Object {
          "default": 20,
          "maximum": 1000,
          "minimum": 1,
          "type": "integer",
        },
      },
      Object {
        "description": "Page (1-based)",
        "in": "query",
        "name": "page",
        "required": false,
        "schema": Object {
          "default": 1,
          "maximum": 1000000,
          "minimum": 0,
          "type": "integer",
        },
      },
      Object {
        "description": "Filter by user id",
        "in": "query",
        "name": "user_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Database id (the runtime has one)",
        "in": "query",
        "name": "db_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Table name (ignored)",
        "in": "query",
        "name": "table",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "properties": Object {
                "data": Object {
                  "items": Object {
                    "$ref": "#/components/schemas/UserMemoryStats",
                  },
                  "type": "array",
                },
                "meta": Object {
                  "$ref": "#/components/schemas/PaginationInfo",
                },
              },
              "required": Array [
                "data",
                "meta",
              ],
              "type": "object",
            },
          },
        },
        "description": "Per-user statistics",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "Memory counts per user",
    "tags": Array [
      "Memory",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /workflows 1`] = `
Object {
  "get": Object {
    "operationId": "get_workflows",
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "items": Object {
                "$ref": "#/components/schemas/WorkflowResponse",
              },
              "type": "array",
            },
          },
        },
        "description": "The workflows",
      },
    },
    "summary": "List workflows (filtered to those the caller may see)",
    "tags": Array [
      "Workflows",
    ],
  },
  "post": Object {
    "operationId": "post_workflows",
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/EntityCreate",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "201": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/ComponentResponse",
            },
          },
        },
        "description": "Created",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "Create a workflow component",
    "tags": Array [
      "Workflows",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /workflows/{workflow_id} 1`] = `
Object {
  "delete": Object {
    "operationId": "delete_workflows_workflow_id",
    "parameters": Array [
      Object {
        "description": "The workflow id",
        "in": "path",
        "name": "workflow_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "204": Object {
        "description": "Deleted",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "409": Object {
        "$ref": "#/components/responses/Conflict",
      },
    },
    "summary": "Delete a workflow component",
    "tags": Array [
      "Workflows",
    ],
  },
  "get": Object {
    "operationId": "get_workflows_workflow_id",
    "parameters": Array [
      Object {
        "description": "The workflow id",
        "in": "path",
        "name": "workflow_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "version",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/WorkflowResponse",
            },
          },
        },
        "description": "The workflow",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "One workflow",
    "tags": Array [
      "Workflows",
    ],
  },
  "patch": Object {
    "operationId": "patch_workflows_workflow_id",
    "parameters": Array [
      Object {
        "description": "The workflow id",
        "in": "path",
        "name": "workflow_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/json": Object {
          "schema": Object {
            "$ref": "#/components/schemas/EntityUpdate",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/ComponentResponse",
            },
          },
        },
        "description": "Updated",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "409": Object {
        "$ref": "#/components/responses/Conflict",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "Update a workflow component",
    "tags": Array [
      "Workflows",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /workflows/{workflow_id}/runs 1`] = `
Object {
  "get": Object {
    "operationId": "get_workflows_workflow_id_runs",
    "parameters": Array [
      Object {
        "description": "The workflow id",
        "in": "path",
        "name": "workflow_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "The session the run belongs to",
        "in": "query",
        "name": "session_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "in": "query",
        "name": "status",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "items": Object {
                "$ref": "#/components/schemas/RunSchema",
              },
              "type": "array",
            },
          },
        },
        "description": "Runs",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "The workflow's runs in a session",
    "tags": Array [
      "Workflows",
    ],
  },
  "post": Object {
    "operationId": "post_workflows_workflow_id_runs",
    "parameters": Array [
      Object {
        "description": "The workflow id",
        "in": "path",
        "name": "workflow_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/x-www-form-urlencoded": Object {
          "schema": Object {
            "$ref": "#/components/schemas/RunForm",
          },
        },
        "multipart/form-data": Object {
          "schema": Object {
            "$ref": "#/components/schemas/RunForm",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/RunOutput",
            },
          },
          "text/event-stream": Object {
            "schema": Object {
              "type": "string",
            },
          },
        },
        "description": "The run: SSE events (\`event: <Name>\`) when streaming, else the run output",
      },
      "202": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/BackgroundRun",
            },
          },
        },
        "description": "Started in the background",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "403": Object {
        "$ref": "#/components/responses/Forbidden",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
      "500": Object {
        "$ref": "#/components/responses/ServerError",
      },
    },
    "summary": "Run the workflow",
    "tags": Array [
      "Workflows",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /workflows/{workflow_id}/runs/{run_id} 1`] = `
Object {
  "get": Object {
    "operationId": "get_workflows_workflow_id_runs_run_id",
    "parameters": Array [
      Object {
        "description": "The workflow id",
        "in": "path",
        "name": "workflow_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Run id",
        "in": "path",
        "name": "run_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "The session the run belongs to",
        "in": "query",
        "name": "session_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/RunOutput",
            },
          },
        },
        "description": "The run output",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "One run",
    "tags": Array [
      "Workflows",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /workflows/{workflow_id}/runs/{run_id}/cancel 1`] = `
Object {
  "post": Object {
    "operationId": "post_workflows_workflow_id_runs_run_id_cancel",
    "parameters": Array [
      Object {
        "description": "The workflow id",
        "in": "path",
        "name": "workflow_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Run id",
        "in": "path",
        "name": "run_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Required for callers under user isolation",
        "in": "query",
        "name": "session_id",
        "required": false,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "type": "object",
            },
          },
        },
        "description": "Cancellation recorded",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
    },
    "summary": "Cancel a run",
    "tags": Array [
      "Workflows",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > /workflows/{workflow_id}/runs/{run_id}/continue 1`] = `
Object {
  "post": Object {
    "operationId": "post_workflows_workflow_id_runs_run_id_continue",
    "parameters": Array [
      Object {
        "description": "The workflow id",
        "in": "path",
        "name": "workflow_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
      Object {
        "description": "Run id",
        "in": "path",
        "name": "run_id",
        "required": true,
        "schema": Object {
          "type": "string",
        },
      },
    ],
    "requestBody": Object {
      "content": Object {
        "application/x-www-form-urlencoded": Object {
          "schema": Object {
            "$ref": "#/components/schemas/WorkflowContinueForm",
          },
        },
        "multipart/form-data": Object {
          "schema": Object {
            "$ref": "#/components/schemas/WorkflowContinueForm",
          },
        },
      },
      "required": true,
    },
    "responses": Object {
      "200": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/RunOutput",
            },
          },
          "text/event-stream": Object {
            "schema": Object {
              "type": "string",
            },
          },
        },
        "description": "The run: SSE events (\`event: <Name>\`) when streaming, else the run output",
      },
      "400": Object {
        "$ref": "#/components/responses/BadRequest",
      },
      "403": Object {
        "$ref": "#/components/responses/Forbidden",
      },
      "404": Object {
        "$ref": "#/components/responses/NotFound",
      },
      "409": Object {
        "$ref": "#/components/responses/Conflict",
      },
      "422": Object {
        "$ref": "#/components/responses/ValidationFailed",
      },
    },
    "summary": "Continue a paused run",
    "tags": Array [
      "Workflows",
    ],
  },
}
`

exports[`test/runtime/http/openapi-snapshot.test.ts > TAP > GET /openapi.json with the default settings matches the committed snapshot > the document without its paths 1`] = `
Object {
  "components": Object {
    "responses": Object {
      "BadRequest": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/ErrorDetail",
            },
          },
        },
        "description": "Bad request",
      },
      "Conflict": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/ErrorDetail",
            },
          },
        },
        "description": "Conflict",
      },
      "Forbidden": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/ErrorDetail",
            },
          },
        },
        "description": "Forbidden",
      },
      "NotFound": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/ErrorDetail",
            },
          },
        },
        "description": "Not found",
      },
      "ServerError": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/ErrorDetail",
            },
          },
        },
        "description": "Internal error",
      },
      "Unavailable": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "$ref": "#/components/schemas/ErrorDetail",
            },
          },
        },
        "description": "Feature not available",
      },
      "ValidationFailed": Object {
        "content": Object {
          "application/json": Object {
            "schema": Object {
              "anyOf": Array [
                Object {
                  "$ref": "#/components/schemas/HTTPValidationError",
                },
                Object {
                  "$ref": "#/components/schemas/ErrorDetail",
                },
              ],
            },
          },
        },
        "description": "Validation error (a FastAPI error list, or a string detail on some routes)",
      },
    },
    "schemas": Object {
      "A2ATask": Object {
        "properties": Object {
          "artifacts": Object {
            "items": Object {
              "type": "object",
            },
            "type": "array",
          },
          "contextId": Object {
            "type": "string",
          },
          "history": Object {
            "items": Object {
              "type": "object",
            },
            "type": "array",
          },
          "id": Object {
            "type": "string",
          },
          "kind": Object {
            "const": "task",
            "type": "string",
          },
          "status": Object {
            "properties": Object {
              "state": Object {
                "enum": Array [
                  "submitted",
                  "working",
                  "completed",
                  "failed",
                  "canceled",
                  "input-required",
                ],
                "type": "string",
              },
            },
            "type": "object",
          },
        },
        "required": Array [
          "kind",
          "id",
          "status",
        ],
        "type": "object",
      },
      "ActivityMessage": Object {
        "properties": Object {
          "activityType": Object {
            "type": "string",
          },
          "content": Object {
            "type": "object",
          },
          "id": Object {
            "type": "string",
          },
          "metadata": Object {},
          "role": Object {
            "const": "activity",
            "type": "string",
          },
          "subagentRunId": Object {},
        },
        "required": Array [
          "id",
          "role",
          "activityType",
          "content",
        ],
        "type": "object",
      },
      "AgentCard": Object {
        "properties": Object {
          "capabilities": Object {
            "type": "object",
          },
          "defaultInputModes": Object {
            "items": Object {
              "type": "string",
            },
            "type": "array",
          },
          "defaultOutputModes": Object {
            "items": Object {
              "type": "string",
            },
            "type": "array",
          },
          "description": Object {
            "type": "string",
          },
          "name": Object {
            "type": "string",
          },
          "preferredTransport": Object {
            "type": "string",
          },
          "protocolVersion": Object {
            "type": "string",
          },
          "skills": Object {
            "items": Object {
              "type": "object",
            },
            "type": "array",
          },
          "supportsAuthenticatedExtendedCard": Object {
            "type": "boolean",
          },
          "url": Object {
            "type": "string",
          },
          "version": Object {
            "type": "string",
          },
        },
        "required": Array [
          "name",
          "url",
          "version",
          "protocolVersion",
        ],
        "type": "object",
      },
      "AgentContinueForm": Object {
        "properties": Object {
          "background": Object {
            "default": false,
            "type": "boolean",
          },
          "continue_from": Object {
            "default": "end",
            "description": "end, last_user or an index",
            "type": "string",
          },
          "fork": Object {
            "default": false,
            "type": "boolean",
          },
          "input": Object {
            "type": "string",
          },
          "regenerate": Object {
            "default": false,
            "type": "boolean",
          },
          "session_id": Object {
            "description": "Required",
            "type": "string",
          },
          "stream": Object {
            "default": true,
            "type": "boolean",
          },
          "tools": Object {
            "description": "JSON array of ToolExecution objects",
            "type": "string",
          },
          "user_id": Object {
            "type": "string",
          },
        },
        "type": "object",
      },
      "AgentResponse": Object {
        "properties": Object {
          "current_version": Object {
            "type": "integer",
          },
          "db_id": Object {
            "type": "string",
          },
          "description": Object {
            "type": "string",
          },
          "id": Object {
            "type": "string",
          },
          "is_component": Object {
            "type": "boolean",
          },
          "is_factory": Object {
            "type": "boolean",
          },
          "metadata": Object {
            "type": "object",
          },
          "model": Object {
            "properties": Object {
              "model": Object {
                "type": "string",
              },
              "name": Object {
                "type": "string",
              },
              "provider": Object {
                "type": "string",
              },
            },
            "type": "object",
          },
          "name": Object {
            "type": "string",
          },
          "role": Object {
            "type": "string",
          },
          "stage": Object {
            "type": "string",
          },
          "system_message": Object {
            "type": "object",
          },
          "tools": Object {
            "properties": Object {
              "tools": Object {
                "items": Object {
                  "type": "object",
                },
                "type": "array",
              },
            },
            "type": "object",
          },
        },
        "required": Array [
          "id",
          "name",
        ],
        "type": "object",
      },
      "Approval": Object {
        "properties": Object {
          "agent_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "approval_type": Object {
            "enum": Array [
              "required",
              "audit",
            ],
            "type": "string",
          },
          "context": Object {
            "type": "object",
          },
          "created_at": Object {
            "description": "Epoch seconds",
            "type": "integer",
          },
          "expires_at": Object {
            "anyOf": Array [
              Object {
                "description": "Epoch seconds",
                "type": "integer",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "id": Object {
            "type": "string",
          },
          "pause_type": Object {
            "anyOf": Array [
              Object {
                "enum": Array [
                  "confirmation",
                  "user_input",
                  "external_execution",
                ],
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "requirements": Object {
            "items": Object {
              "type": "object",
            },
            "type": "array",
          },
          "resolution_data": Object {
            "anyOf": Array [
              Object {
                "type": "object",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "resolved_at": Object {
            "anyOf": Array [
              Object {
                "description": "Epoch seconds",
                "type": "integer",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "resolved_by": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "run_id": Object {
            "type": "string",
          },
          "run_status": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "schedule_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "schedule_run_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "session_id": Object {
            "type": "string",
          },
          "source_name": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "source_type": Object {
            "enum": Array [
              "agent",
              "team",
              "workflow",
            ],
            "type": "string",
          },
          "status": Object {
            "enum": Array [
              "pending",
              "approved",
              "rejected",
              "expired",
              "cancelled",
            ],
            "type": "string",
          },
          "team_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "tool_args": Object {
            "anyOf": Array [
              Object {
                "type": "object",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "tool_name": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "updated_at": Object {
            "description": "Epoch seconds",
            "type": "integer",
          },
          "user_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "workflow_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
        },
        "required": Array [
          "id",
          "run_id",
          "session_id",
          "status",
          "source_type",
          "approval_type",
          "pause_type",
          "tool_name",
          "tool_args",
          "expires_at",
          "agent_id",
          "team_id",
          "workflow_id",
          "user_id",
          "schedule_id",
          "schedule_run_id",
          "source_name",
          "requirements",
          "context",
          "resolution_data",
          "resolved_by",
          "resolved_at",
          "created_at",
          "updated_at",
          "run_status",
        ],
        "type": "object",
      },
      "ApprovalCount": Object {
        "properties": Object {
          "count": Object {
            "type": "integer",
          },
        },
        "required": Array [
          "count",
        ],
        "type": "object",
      },
      "ApprovalResolve": Object {
        "properties": Object {
          "resolution_data": Object {
            "anyOf": Array [
              Object {
                "type": "object",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "resolved_by": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "status": Object {
            "enum": Array [
              "approved",
              "rejected",
            ],
            "type": "string",
          },
        },
        "required": Array [
          "status",
        ],
        "type": "object",
      },
      "ApprovalStatus": Object {
        "properties": Object {
          "approval_id": Object {
            "type": "string",
          },
          "resolved_at": Object {
            "anyOf": Array [
              Object {
                "description": "Epoch seconds",
                "type": "integer",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "resolved_by": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "run_id": Object {
            "type": "string",
          },
          "status": Object {
            "type": "string",
          },
        },
        "required": Array [
          "approval_id",
          "status",
          "run_id",
          "resolved_at",
          "resolved_by",
        ],
        "type": "object",
      },
      "AssistantMessage": Object {
        "properties": Object {
          "content": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "encryptedValue": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "id": Object {
            "type": "string",
          },
          "metadata": Object {},
          "name": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "role": Object {
            "const": "assistant",
            "type": "string",
          },
          "subagentRunId": Object {},
          "toolCalls": Object {
            "anyOf": Array [
              Object {
                "items": Object {
                  "$ref": "#/components/schemas/ToolCall",
                },
                "type": "array",
              },
              Object {
                "type": "null",
              },
            ],
          },
        },
        "required": Array [
          "id",
          "role",
        ],
        "type": "object",
      },
      "AudioInputContent": Object {
        "properties": Object {
          "id": Object {},
          "metadata": Object {},
          "source": Object {
            "discriminator": Object {
              "mapping": Object {
                "data": "#/components/schemas/InputContentDataSource",
                "url": "#/components/schemas/InputContentUrlSource",
              },
              "propertyName": "type",
            },
            "oneOf": Array [
              Object {
                "$ref": "#/components/schemas/InputContentDataSource",
              },
              Object {
                "$ref": "#/components/schemas/InputContentUrlSource",
              },
            ],
          },
          "type": Object {
            "const": "audio",
            "type": "string",
          },
        },
        "required": Array [
          "type",
          "source",
        ],
        "type": "object",
      },
      "BackgroundRun": Object {
        "properties": Object {
          "run_id": Object {
            "type": "string",
          },
          "session_id": Object {
            "type": "string",
          },
          "status": Object {
            "enum": Array [
              "PENDING",
              "RUNNING",
            ],
            "type": "string",
          },
        },
        "required": Array [
          "run_id",
          "session_id",
          "status",
        ],
        "type": "object",
      },
      "BinaryInputContent": Object {
        "deprecated": true,
        "properties": Object {
          "data": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "filename": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "mimeType": Object {
            "type": "string",
          },
          "type": Object {
            "const": "binary",
            "type": "string",
          },
          "url": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
        },
        "required": Array [
          "type",
          "mimeType",
        ],
        "type": "object",
      },
      "ComponentConfigResponse": Object {
        "properties": Object {
          "component_id": Object {
            "type": "string",
          },
          "config": Object {
            "type": "object",
          },
          "created_at": Object {
            "description": "Epoch seconds",
            "type": "integer",
          },
          "label": Object {
            "type": "string",
          },
          "notes": Object {
            "type": "string",
          },
          "stage": Object {
            "enum": Array [
              "draft",
              "published",
            ],
            "type": "string",
          },
          "updated_at": Object {
            "description": "Epoch seconds",
            "type": "integer",
          },
          "version": Object {
            "type": "integer",
          },
        },
        "required": Array [
          "component_id",
          "version",
          "stage",
          "created_at",
          "updated_at",
        ],
        "type": "object",
      },
      "ComponentCreate": Object {
        "additionalProperties": false,
        "properties": Object {
          "component_id": Object {
            "pattern": "^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$",
            "type": "string",
          },
          "component_type": Object {
            "enum": Array [
              "agent",
              "team",
              "workflow",
            ],
            "type": "string",
          },
          "config": Object {
            "type": "object",
          },
          "description": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "label": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "metadata": Object {
            "anyOf": Array [
              Object {
                "type": "object",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "name": Object {
            "maxLength": 255,
            "minLength": 1,
            "type": "string",
          },
          "notes": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "set_current": Object {
            "default": true,
            "type": "boolean",
          },
          "stage": Object {
            "default": "draft",
            "enum": Array [
              "draft",
              "published",
            ],
            "type": "string",
          },
        },
        "required": Array [
          "name",
          "component_type",
        ],
        "type": "object",
      },
      "ComponentResponse": Object {
        "properties": Object {
          "component_id": Object {
            "type": "string",
          },
          "component_type": Object {
            "enum": Array [
              "agent",
              "team",
              "workflow",
            ],
            "type": "string",
          },
          "created_at": Object {
            "description": "Epoch seconds",
            "type": "integer",
          },
          "current_version": Object {
            "type": "integer",
          },
          "description": Object {
            "type": "string",
          },
          "metadata": Object {
            "type": "object",
          },
          "name": Object {
            "type": "string",
          },
          "updated_at": Object {
            "description": "Epoch seconds",
            "type": "integer",
          },
        },
        "required": Array [
          "component_id",
          "component_type",
          "name",
          "created_at",
          "updated_at",
        ],
        "type": "object",
      },
      "ComponentUpdate": Object {
        "additionalProperties": false,
        "properties": Object {
          "component_type": Object {
            "enum": Array [
              "agent",
              "team",
              "workflow",
            ],
            "type": "string",
          },
          "current_version": Object {
            "anyOf": Array [
              Object {
                "minimum": 1,
                "type": "integer",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "description": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "metadata": Object {
            "anyOf": Array [
              Object {
                "type": "object",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "name": Object {
            "maxLength": 255,
            "minLength": 1,
            "type": "string",
          },
        },
        "type": "object",
      },
      "Config": Object {
        "properties": Object {
          "agents": Object {
            "items": Object {
              "type": "object",
            },
            "type": "array",
          },
          "available_models": Object {
            "items": Object {
              "type": "string",
            },
            "type": "array",
          },
          "databases": Object {
            "items": Object {
              "type": "string",
            },
            "type": "array",
          },
          "description": Object {
            "type": "string",
          },
          "evals": Object {
            "$ref": "#/components/schemas/DomainConfig",
          },
          "interfaces": Object {
            "items": Object {
              "properties": Object {
                "route": Object {
                  "type": "string",
                },
                "type": Object {
                  "enum": Array [
                    "agui",
                    "a2a",
                  ],
                  "type": "string",
                },
                "version": Object {
                  "type": "string",
                },
              },
              "type": "object",
            },
            "type": "array",
          },
          "knowledge": Object {
            "type": "object",
          },
          "learning": Object {
            "$ref": "#/components/schemas/DomainConfig",
          },
          "memory": Object {
            "$ref": "#/components/schemas/DomainConfig",
          },
          "metrics": Object {
            "$ref": "#/components/schemas/DomainConfig",
          },
          "os_database": Object {
            "type": "string",
          },
          "os_id": Object {
            "type": "string",
          },
          "session": Object {
            "$ref": "#/components/schemas/DomainConfig",
          },
          "teams": Object {
            "items": Object {
              "type": "object",
            },
            "type": "array",
          },
          "traces": Object {
            "$ref": "#/components/schemas/DomainConfig",
          },
          "workflows": Object {
            "items": Object {
              "type": "object",
            },
            "type": "array",
          },
        },
        "required": Array [
          "os_id",
          "databases",
        ],
        "type": "object",
      },
      "ConfigCreate": Object {
        "additionalProperties": false,
        "properties": Object {
          "config": Object {
            "type": "object",
          },
          "label": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "links": Object {
            "items": Object {
              "type": "object",
            },
            "type": "array",
          },
          "notes": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "set_current": Object {
            "default": true,
            "type": "boolean",
          },
          "stage": Object {
            "default": "draft",
            "enum": Array [
              "draft",
              "published",
            ],
            "type": "string",
          },
          "version": Object {
            "minimum": 1,
            "type": "integer",
          },
        },
        "required": Array [
          "config",
        ],
        "type": "object",
      },
      "ConfigUpdate": Object {
        "additionalProperties": false,
        "properties": Object {
          "config": Object {
            "type": "object",
          },
          "label": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "links": Object {
            "items": Object {
              "type": "object",
            },
            "type": "array",
          },
          "notes": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "stage": Object {
            "enum": Array [
              "draft",
              "published",
            ],
            "type": "string",
          },
        },
        "type": "object",
      },
      "Content": Object {
        "properties": Object {
          "access_count": Object {
            "anyOf": Array [
              Object {
                "type": "integer",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "created_at": Object {
            "format": "date-time",
            "type": "string",
          },
          "description": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "id": Object {
            "type": "string",
          },
          "linked_to": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "metadata": Object {
            "anyOf": Array [
              Object {
                "type": "object",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "name": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "size": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "status": Object {
            "enum": Array [
              "processing",
              "completed",
              "failed",
            ],
            "type": "string",
          },
          "status_message": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "type": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "updated_at": Object {
            "format": "date-time",
            "type": "string",
          },
        },
        "required": Array [
          "id",
          "name",
          "description",
          "type",
          "size",
          "linked_to",
          "metadata",
          "access_count",
          "status",
          "status_message",
          "created_at",
          "updated_at",
        ],
        "type": "object",
      },
      "ContentAccepted": Object {
        "properties": Object {
          "description": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "id": Object {
            "type": "string",
          },
          "metadata": Object {
            "anyOf": Array [
              Object {
                "type": "object",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "name": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "status": Object {
            "const": "processing",
            "type": "string",
          },
        },
        "required": Array [
          "id",
          "name",
          "description",
          "metadata",
          "status",
        ],
        "type": "object",
      },
      "ContentForm": Object {
        "properties": Object {
          "chunk_overlap": Object {
            "type": "integer",
          },
          "chunk_size": Object {
            "type": "integer",
          },
          "chunker": Object {
            "type": "string",
          },
          "description": Object {
            "type": "string",
          },
          "file": Object {
            "format": "binary",
            "type": "string",
          },
          "metadata": Object {
            "description": "JSON object",
            "type": "string",
          },
          "name": Object {
            "type": "string",
          },
          "reader_id": Object {
            "type": "string",
          },
          "text_content": Object {
            "type": "string",
          },
          "url": Object {
            "description": "A URL or a JSON array of URLs",
            "type": "string",
          },
        },
        "type": "object",
      },
      "ContentStatus": Object {
        "properties": Object {
          "id": Object {
            "type": "string",
          },
          "status": Object {
            "type": "string",
          },
          "status_message": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
        },
        "required": Array [
          "id",
          "status",
          "status_message",
        ],
        "type": "object",
      },
      "ContentUpdateForm": Object {
        "properties": Object {
          "description": Object {
            "type": "string",
          },
          "metadata": Object {
            "description": "JSON object",
            "type": "string",
          },
          "name": Object {
            "type": "string",
          },
          "reader_id": Object {
            "type": "string",
          },
        },
        "type": "object",
      },
      "Context": Object {
        "properties": Object {
          "description": Object {
            "type": "string",
          },
          "value": Object {
            "type": "string",
          },
        },
        "required": Array [
          "description",
          "value",
        ],
        "type": "object",
      },
      "DayMetrics": Object {
        "properties": Object {
          "agent_runs_count": Object {
            "type": "integer",
          },
          "agent_sessions_count": Object {
            "type": "integer",
          },
          "created_at": Object {
            "format": "date-time",
            "type": "string",
          },
          "date": Object {
            "format": "date",
            "type": "string",
          },
          "id": Object {
            "type": "string",
          },
          "model_metrics": Object {
            "items": Object {
              "properties": Object {
                "count": Object {
                  "type": "integer",
                },
                "model_id": Object {
                  "type": "string",
                },
                "model_provider": Object {
                  "anyOf": Array [
                    Object {
                      "type": "string",
                    },
                    Object {
                      "type": "null",
                    },
                  ],
                },
              },
              "required": Array [
                "model_id",
                "model_provider",
                "count",
              ],
              "type": "object",
            },
            "type": "array",
          },
          "team_runs_count": Object {
            "type": "integer",
          },
          "team_sessions_count": Object {
            "type": "integer",
          },
          "token_metrics": Object {
            "properties": Object {
              "audio_tokens": Object {
                "type": "integer",
              },
              "cache_write_tokens": Object {
                "type": "integer",
              },
              "cached_tokens": Object {
                "type": "integer",
              },
              "input_audio_tokens": Object {
                "type": "integer",
              },
              "input_tokens": Object {
                "type": "integer",
              },
              "output_audio_tokens": Object {
                "type": "integer",
              },
              "output_tokens": Object {
                "type": "integer",
              },
              "reasoning_tokens": Object {
                "type": "integer",
              },
              "total_tokens": Object {
                "type": "integer",
              },
            },
            "required": Array [
              "input_tokens",
              "output_tokens",
              "total_tokens",
              "audio_tokens",
              "input_audio_tokens",
              "output_audio_tokens",
              "cached_tokens",
              "cache_write_tokens",
              "reasoning_tokens",
            ],
            "type": "object",
          },
          "updated_at": Object {
            "format": "date-time",
            "type": "string",
          },
          "users_count": Object {
            "type": "integer",
          },
          "workflow_runs_count": Object {
            "type": "integer",
          },
          "workflow_sessions_count": Object {
            "type": "integer",
          },
        },
        "required": Array [
          "id",
          "agent_runs_count",
          "agent_sessions_count",
          "team_runs_count",
          "team_sessions_count",
          "workflow_runs_count",
          "workflow_sessions_count",
          "users_count",
          "token_metrics",
          "model_metrics",
          "date",
          "created_at",
          "updated_at",
        ],
        "type": "object",
      },
      "DeveloperMessage": Object {
        "properties": Object {
          "content": Object {
            "type": "string",
          },
          "encryptedValue": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "id": Object {
            "type": "string",
          },
          "metadata": Object {},
          "name": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "role": Object {
            "const": "developer",
            "type": "string",
          },
          "subagentRunId": Object {},
        },
        "required": Array [
          "id",
          "role",
          "content",
        ],
        "type": "object",
      },
      "DocumentInputContent": Object {
        "properties": Object {
          "id": Object {},
          "metadata": Object {},
          "source": Object {
            "discriminator": Object {
              "mapping": Object {
                "data": "#/components/schemas/InputContentDataSource",
                "url": "#/components/schemas/InputContentUrlSource",
              },
              "propertyName": "type",
            },
            "oneOf": Array [
              Object {
                "$ref": "#/components/schemas/InputContentDataSource",
              },
              Object {
                "$ref": "#/components/schemas/InputContentUrlSource",
              },
            ],
          },
          "type": Object {
            "const": "document",
            "type": "string",
          },
        },
        "required": Array [
          "type",
          "source",
        ],
        "type": "object",
      },
      "DomainConfig": Object {
        "properties": Object {
          "dbs": Object {
            "items": Object {
              "properties": Object {
                "db_id": Object {
                  "type": "string",
                },
                "domain_config": Object {
                  "properties": Object {
                    "display_name": Object {
                      "type": "string",
                    },
                  },
                  "type": "object",
                },
                "tables": Object {
                  "items": Object {
                    "type": "string",
                  },
                  "type": "array",
                },
              },
              "type": "object",
            },
            "type": "array",
          },
        },
        "type": "object",
      },
      "EntityCreate": Object {
        "additionalProperties": false,
        "description": "ComponentCreate without component_type (fixed by the route)",
        "properties": Object {
          "component_id": Object {
            "pattern": "^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$",
            "type": "string",
          },
          "config": Object {
            "type": "object",
          },
          "description": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "label": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "metadata": Object {
            "anyOf": Array [
              Object {
                "type": "object",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "name": Object {
            "maxLength": 255,
            "minLength": 1,
            "type": "string",
          },
          "notes": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "set_current": Object {
            "default": true,
            "type": "boolean",
          },
          "stage": Object {
            "default": "draft",
            "enum": Array [
              "draft",
              "published",
            ],
            "type": "string",
          },
        },
        "required": Array [
          "name",
        ],
        "type": "object",
      },
      "EntityUpdate": Object {
        "additionalProperties": false,
        "description": "ComponentUpdate without component_type (fixed by the route); a config becomes a new current version",
        "properties": Object {
          "config": Object {
            "type": "object",
          },
          "current_version": Object {
            "anyOf": Array [
              Object {
                "minimum": 1,
                "type": "integer",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "description": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "metadata": Object {
            "anyOf": Array [
              Object {
                "type": "object",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "name": Object {
            "maxLength": 255,
            "minLength": 1,
            "type": "string",
          },
        },
        "type": "object",
      },
      "ErrorDetail": Object {
        "properties": Object {
          "detail": Object {
            "type": "string",
          },
        },
        "required": Array [
          "detail",
        ],
        "type": "object",
      },
      "EvalCreate": Object {
        "properties": Object {
          "additional_context": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "additional_guidelines": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "agent_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "allow_additional_tool_calls": Object {
            "default": false,
            "type": "boolean",
          },
          "criteria": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "eval_type": Object {
            "enum": Array [
              "accuracy",
              "agent_as_judge",
              "performance",
              "reliability",
            ],
            "type": "string",
          },
          "expected_output": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "expected_tool_call_arguments": Object {
            "anyOf": Array [
              Object {
                "additionalProperties": Object {
                  "type": "object",
                },
                "type": "object",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "expected_tool_calls": Object {
            "anyOf": Array [
              Object {
                "items": Object {
                  "type": "string",
                },
                "type": "array",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "input": Object {
            "minLength": 1,
            "type": "string",
          },
          "model_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "model_provider": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "name": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "num_iterations": Object {
            "default": 1,
            "maximum": 100,
            "minimum": 1,
            "type": "integer",
          },
          "scoring_strategy": Object {
            "anyOf": Array [
              Object {
                "enum": Array [
                  "numeric",
                  "binary",
                ],
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
            "default": "binary",
          },
          "team_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "threshold": Object {
            "anyOf": Array [
              Object {
                "maximum": 10,
                "minimum": 1,
                "type": "integer",
              },
              Object {
                "type": "null",
              },
            ],
            "default": 7,
          },
          "warmup_runs": Object {
            "default": 0,
            "maximum": 10,
            "minimum": 0,
            "type": "integer",
          },
        },
        "required": Array [
          "eval_type",
          "input",
        ],
        "type": "object",
      },
      "EvalRun": Object {
        "properties": Object {
          "agent_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "created_at": Object {
            "format": "date-time",
            "type": "string",
          },
          "eval_data": Object {
            "type": "object",
          },
          "eval_input": Object {
            "anyOf": Array [
              Object {
                "type": "object",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "eval_type": Object {
            "enum": Array [
              "accuracy",
              "agent_as_judge",
              "performance",
              "reliability",
            ],
            "type": "string",
          },
          "evaluated_component_name": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "id": Object {
            "type": "string",
          },
          "model_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "model_provider": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "name": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "team_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "updated_at": Object {
            "format": "date-time",
            "type": "string",
          },
          "workflow_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
        },
        "required": Array [
          "id",
          "agent_id",
          "model_id",
          "model_provider",
          "team_id",
          "workflow_id",
          "name",
          "evaluated_component_name",
          "eval_type",
          "eval_data",
          "eval_input",
          "created_at",
          "updated_at",
        ],
        "type": "object",
      },
      "EvalsDelete": Object {
        "properties": Object {
          "eval_run_ids": Object {
            "items": Object {
              "type": "string",
            },
            "minItems": 1,
            "type": "array",
          },
        },
        "required": Array [
          "eval_run_ids",
        ],
        "type": "object",
      },
      "EvalUpdate": Object {
        "properties": Object {
          "name": Object {
            "maxLength": 255,
            "minLength": 1,
            "type": "string",
          },
        },
        "required": Array [
          "name",
        ],
        "type": "object",
      },
      "FunctionCall": Object {
        "properties": Object {
          "arguments": Object {
            "description": "JSON text",
            "type": "string",
          },
          "name": Object {
            "type": "string",
          },
        },
        "required": Array [
          "name",
          "arguments",
        ],
        "type": "object",
      },
      "Health": Object {
        "properties": Object {
          "instantiated_at": Object {
            "format": "date-time",
            "type": "string",
          },
          "status": Object {
            "const": "ok",
            "type": "string",
          },
        },
        "required": Array [
          "status",
          "instantiated_at",
        ],
        "type": "object",
      },
      "HTTPValidationError": Object {
        "properties": Object {
          "detail": Object {
            "items": Object {
              "$ref": "#/components/schemas/ValidationError",
            },
            "title": "Detail",
            "type": "array",
          },
        },
        "title": "HTTPValidationError",
        "type": "object",
      },
      "ImageInputContent": Object {
        "properties": Object {
          "id": Object {},
          "metadata": Object {},
          "source": Object {
            "discriminator": Object {
              "mapping": Object {
                "data": "#/components/schemas/InputContentDataSource",
                "url": "#/components/schemas/InputContentUrlSource",
              },
              "propertyName": "type",
            },
            "oneOf": Array [
              Object {
                "$ref": "#/components/schemas/InputContentDataSource",
              },
              Object {
                "$ref": "#/components/schemas/InputContentUrlSource",
              },
            ],
          },
          "type": Object {
            "const": "image",
            "type": "string",
          },
        },
        "required": Array [
          "type",
          "source",
        ],
        "type": "object",
      },
      "Info": Object {
        "properties": Object {
          "agent_count": Object {
            "type": "integer",
          },
          "agno_version": Object {
            "type": "string",
          },
          "auth_mode": Object {
            "enum": Array [
              "none",
              "security_key",
              "jwt",
            ],
            "type": "string",
          },
          "mcp": Object {
            "properties": Object {
              "enabled": Object {
                "type": "boolean",
              },
              "oauth": Object {},
              "path": Object {
                "anyOf": Array [
                  Object {
                    "type": "string",
                  },
                  Object {
                    "type": "null",
                  },
                ],
              },
            },
            "type": "object",
          },
          "name": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "os_id": Object {
            "type": "string",
          },
          "team_count": Object {
            "type": "integer",
          },
          "workflow_count": Object {
            "type": "integer",
          },
        },
        "required": Array [
          "os_id",
          "agno_version",
          "agent_count",
          "team_count",
          "workflow_count",
          "auth_mode",
        ],
        "type": "object",
      },
      "InputContent": Object {
        "description": "A part of multimodal user content, discriminated by type",
        "discriminator": Object {
          "mapping": Object {
            "audio": "#/components/schemas/AudioInputContent",
            "binary": "#/components/schemas/BinaryInputContent",
            "document": "#/components/schemas/DocumentInputContent",
            "image": "#/components/schemas/ImageInputContent",
            "text": "#/components/schemas/TextInputContent",
            "video": "#/components/schemas/VideoInputContent",
          },
          "propertyName": "type",
        },
        "oneOf": Array [
          Object {
            "$ref": "#/components/schemas/TextInputContent",
          },
          Object {
            "$ref": "#/components/schemas/ImageInputContent",
          },
          Object {
            "$ref": "#/components/schemas/AudioInputContent",
          },
          Object {
            "$ref": "#/components/schemas/VideoInputContent",
          },
          Object {
            "$ref": "#/components/schemas/DocumentInputContent",
          },
          Object {
            "$ref": "#/components/schemas/BinaryInputContent",
          },
        ],
      },
      "InputContentDataSource": Object {
        "description": "Inline base64-encoded content",
        "properties": Object {
          "mimeType": Object {
            "type": "string",
          },
          "type": Object {
            "const": "data",
            "type": "string",
          },
          "value": Object {
            "type": "string",
          },
        },
        "required": Array [
          "type",
          "value",
          "mimeType",
        ],
        "type": "object",
      },
      "InputContentUrlSource": Object {
        "description": "Content referenced by URL",
        "properties": Object {
          "mimeType": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "type": Object {
            "const": "url",
            "type": "string",
          },
          "value": Object {
            "type": "string",
          },
        },
        "required": Array [
          "type",
          "value",
        ],
        "type": "object",
      },
      "JsonRpcRequest": Object {
        "description": "An A2A JSON-RPC 2.0 request (message/send, message/stream, tasks/get, …)",
        "properties": Object {
          "id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "integer",
              },
            ],
          },
          "jsonrpc": Object {
            "const": "2.0",
            "type": "string",
          },
          "method": Object {
            "type": "string",
          },
          "params": Object {
            "type": "object",
          },
        },
        "required": Array [
          "jsonrpc",
          "id",
          "params",
        ],
        "type": "object",
      },
      "JsonRpcResponse": Object {
        "properties": Object {
          "id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "integer",
              },
            ],
          },
          "jsonrpc": Object {
            "const": "2.0",
            "type": "string",
          },
          "result": Object {
            "$ref": "#/components/schemas/A2ATask",
          },
        },
        "required": Array [
          "jsonrpc",
          "id",
          "result",
        ],
        "type": "object",
      },
      "KnowledgeConfig": Object {
        "properties": Object {
          "chunkers": Object {
            "type": "object",
          },
          "filters": Object {
            "items": Object {
              "type": "string",
            },
            "type": "array",
          },
          "readers": Object {
            "type": "object",
          },
          "readersForType": Object {
            "type": "object",
          },
          "remote_content_sources": Object {
            "items": Object {
              "type": "object",
            },
            "type": "array",
          },
          "vector_dbs": Object {
            "items": Object {
              "type": "object",
            },
            "type": "array",
          },
        },
        "required": Array [
          "readers",
          "readersForType",
          "chunkers",
          "filters",
          "vector_dbs",
          "remote_content_sources",
        ],
        "type": "object",
      },
      "KnowledgeSearchRequest": Object {
        "properties": Object {
          "db_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "filters": Object {
            "anyOf": Array [
              Object {
                "type": "object",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "knowledge_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "max_results": Object {
            "anyOf": Array [
              Object {
                "maximum": 1000,
                "minimum": 1,
                "type": "integer",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "meta": Object {
            "anyOf": Array [
              Object {
                "properties": Object {
                  "limit": Object {
                    "default": 20,
                    "maximum": 1000,
                    "minimum": 1,
                    "type": "integer",
                  },
                  "page": Object {
                    "default": 1,
                    "minimum": 0,
                    "type": "integer",
                  },
                },
                "type": "object",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "query": Object {
            "type": "string",
          },
          "search_type": Object {
            "anyOf": Array [
              Object {
                "enum": Array [
                  "vector",
                  "keyword",
                  "hybrid",
                ],
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "vector_db_ids": Object {
            "anyOf": Array [
              Object {
                "items": Object {
                  "type": "string",
                },
                "type": "array",
              },
              Object {
                "type": "null",
              },
            ],
          },
        },
        "required": Array [
          "query",
        ],
        "type": "object",
      },
      "KnowledgeSearchResult": Object {
        "properties": Object {
          "content": Object {
            "type": "string",
          },
          "content_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "content_origin": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "id": Object {
            "type": "string",
          },
          "meta_data": Object {
            "anyOf": Array [
              Object {
                "type": "object",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "name": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "reranking_score": Object {
            "anyOf": Array [
              Object {
                "type": "number",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "size": Object {
            "anyOf": Array [
              Object {
                "type": "integer",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "usage": Object {
            "anyOf": Array [
              Object {
                "type": "object",
              },
              Object {
                "type": "null",
              },
            ],
          },
        },
        "required": Array [
          "id",
          "content",
          "name",
          "meta_data",
          "usage",
          "reranking_score",
          "content_id",
          "content_origin",
          "size",
        ],
        "type": "object",
      },
      "KnowledgeSource": Object {
        "properties": Object {
          "id": Object {
            "type": "string",
          },
          "metadata": Object {
            "anyOf": Array [
              Object {
                "type": "object",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "name": Object {
            "type": "string",
          },
          "prefix": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "type": Object {
            "type": "string",
          },
        },
        "required": Array [
          "id",
          "name",
          "type",
          "metadata",
        ],
        "type": "object",
      },
      "Learning": Object {
        "properties": Object {
          "agent_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "content": Object {
            "type": "object",
          },
          "created_at": Object {
            "description": "Epoch seconds",
            "type": "integer",
          },
          "entity_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "entity_type": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "learning_id": Object {
            "type": "string",
          },
          "learning_type": Object {
            "type": "string",
          },
          "metadata": Object {
            "anyOf": Array [
              Object {
                "type": "object",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "namespace": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "session_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "team_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "updated_at": Object {
            "description": "Epoch seconds",
            "type": "integer",
          },
          "user_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
        },
        "required": Array [
          "learning_id",
          "learning_type",
          "namespace",
          "user_id",
          "agent_id",
          "team_id",
          "session_id",
          "entity_id",
          "entity_type",
          "content",
          "metadata",
          "created_at",
          "updated_at",
        ],
        "type": "object",
      },
      "LearningCreate": Object {
        "properties": Object {
          "agent_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "content": Object {
            "type": "object",
          },
          "entity_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "entity_type": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "learning_type": Object {
            "type": "string",
          },
          "metadata": Object {
            "anyOf": Array [
              Object {
                "type": "object",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "namespace": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "session_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "team_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "user_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
        },
        "required": Array [
          "learning_type",
          "content",
        ],
        "type": "object",
      },
      "LearningUpdate": Object {
        "properties": Object {
          "content": Object {
            "type": "object",
          },
          "metadata": Object {
            "anyOf": Array [
              Object {
                "type": "object",
              },
              Object {
                "type": "null",
              },
            ],
          },
        },
        "type": "object",
      },
      "LearningUser": Object {
        "properties": Object {
          "last_learning_updated_at": Object {
            "description": "Epoch seconds",
            "type": "integer",
          },
          "user_id": Object {
            "type": "string",
          },
        },
        "required": Array [
          "user_id",
          "last_learning_updated_at",
        ],
        "type": "object",
      },
      "MemoriesDelete": Object {
        "properties": Object {
          "memory_ids": Object {
            "items": Object {
              "type": "string",
            },
            "minItems": 1,
            "type": "array",
          },
          "user_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
        },
        "required": Array [
          "memory_ids",
        ],
        "type": "object",
      },
      "MemoryWrite": Object {
        "properties": Object {
          "memory": Object {
            "maxLength": 5000,
            "minLength": 1,
            "type": "string",
          },
          "topics": Object {
            "anyOf": Array [
              Object {
                "items": Object {
                  "type": "string",
                },
                "type": "array",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "user_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
        },
        "required": Array [
          "memory",
        ],
        "type": "object",
      },
      "Message": Object {
        "description": "A message, discriminated by role",
        "discriminator": Object {
          "mapping": Object {
            "activity": "#/components/schemas/ActivityMessage",
            "assistant": "#/components/schemas/AssistantMessage",
            "developer": "#/components/schemas/DeveloperMessage",
            "reasoning": "#/components/schemas/ReasoningMessage",
            "system": "#/components/schemas/SystemMessage",
            "tool": "#/components/schemas/ToolMessage",
            "user": "#/components/schemas/UserMessage",
          },
          "propertyName": "role",
        },
        "oneOf": Array [
          Object {
            "$ref": "#/components/schemas/DeveloperMessage",
          },
          Object {
            "$ref": "#/components/schemas/SystemMessage",
          },
          Object {
            "$ref": "#/components/schemas/AssistantMessage",
          },
          Object {
            "$ref": "#/components/schemas/UserMessage",
          },
          Object {
            "$ref": "#/components/schemas/ToolMessage",
          },
          Object {
            "$ref": "#/components/schemas/ActivityMessage",
          },
          Object {
            "$ref": "#/components/schemas/ReasoningMessage",
          },
        ],
      },
      "MetricsResponse": Object {
        "properties": Object {
          "metrics": Object {
            "items": Object {
              "$ref": "#/components/schemas/DayMetrics",
            },
            "type": "array",
          },
          "updated_at": Object {
            "anyOf": Array [
              Object {
                "format": "date-time",
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
        },
        "required": Array [
          "metrics",
          "updated_at",
        ],
        "type": "object",
      },
      "MigrateResponse": Object {
        "properties": Object {
          "failed": Object {
            "type": "object",
          },
          "message": Object {
            "type": "string",
          },
        },
        "required": Array [
          "message",
        ],
        "type": "object",
      },
      "Model": Object {
        "properties": Object {
          "id": Object {
            "type": "string",
          },
          "provider": Object {
            "type": "string",
          },
        },
        "required": Array [
          "id",
          "provider",
        ],
        "type": "object",
      },
      "OptimizeMemoriesRequest": Object {
        "properties": Object {
          "apply": Object {
            "default": true,
            "type": "boolean",
          },
          "model": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
            "description": "provider:model_id",
          },
          "user_id": Object {
            "type": "string",
          },
        },
        "required": Array [
          "user_id",
        ],
        "type": "object",
      },
      "OptimizeMemoriesResponse": Object {
        "properties": Object {
          "memories": Object {
            "items": Object {
              "$ref": "#/components/schemas/UserMemory",
            },
            "type": "array",
          },
          "memories_after": Object {
            "type": "integer",
          },
          "memories_before": Object {
            "type": "integer",
          },
          "reduction_percentage": Object {
            "type": "number",
          },
          "tokens_after": Object {
            "type": "integer",
          },
          "tokens_before": Object {
            "type": "integer",
          },
          "tokens_saved": Object {
            "type": "integer",
          },
        },
        "required": Array [
          "memories",
          "memories_before",
          "memories_after",
          "tokens_before",
          "tokens_after",
          "tokens_saved",
          "reduction_percentage",
        ],
        "type": "object",
      },
      "PaginationInfo": Object {
        "properties": Object {
          "limit": Object {
            "type": "integer",
          },
          "page": Object {
            "type": "integer",
          },
          "search_time_ms": Object {
            "type": "number",
          },
          "total_count": Object {
            "type": "integer",
          },
          "total_pages": Object {
            "type": "integer",
          },
        },
        "required": Array [
          "page",
          "limit",
          "total_pages",
          "total_count",
          "search_time_ms",
        ],
        "type": "object",
      },
      "ReasoningMessage": Object {
        "properties": Object {
          "content": Object {
            "type": "string",
          },
          "encryptedValue": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "id": Object {
            "type": "string",
          },
          "metadata": Object {},
          "role": Object {
            "const": "reasoning",
            "type": "string",
          },
          "subagentRunId": Object {},
        },
        "required": Array [
          "id",
          "role",
          "content",
        ],
        "type": "object",
      },
      "RegistryEntry": Object {
        "properties": Object {
          "description": Object {
            "type": "string",
          },
          "id": Object {
            "type": "string",
          },
          "metadata": Object {
            "type": "object",
          },
          "name": Object {
            "type": "string",
          },
          "type": Object {
            "type": "string",
          },
        },
        "required": Array [
          "name",
          "type",
        ],
        "type": "object",
      },
      "RemoteContentForm": Object {
        "properties": Object {
          "chunk_overlap": Object {
            "type": "integer",
          },
          "chunk_size": Object {
            "type": "integer",
          },
          "chunker": Object {
            "type": "string",
          },
          "config_id": Object {
            "type": "string",
          },
          "description": Object {
            "type": "string",
          },
          "metadata": Object {
            "description": "JSON object",
            "type": "string",
          },
          "name": Object {
            "type": "string",
          },
          "path": Object {
            "type": "string",
          },
          "reader_id": Object {
            "type": "string",
          },
          "source_params": Object {
            "description": "JSON object",
            "type": "string",
          },
        },
        "required": Array [
          "config_id",
          "path",
        ],
        "type": "object",
      },
      "ResumeEntry": Object {
        "description": "The answer to one interrupt of a paused run",
        "properties": Object {
          "interruptId": Object {
            "type": "string",
          },
          "metadata": Object {},
          "payload": Object {},
          "status": Object {
            "enum": Array [
              "resolved",
              "cancelled",
            ],
            "type": "string",
          },
        },
        "required": Array [
          "interruptId",
          "status",
        ],
        "type": "object",
      },
      "Root": Object {
        "properties": Object {
          "id": Object {
            "type": "string",
          },
          "name": Object {
            "type": "string",
          },
          "version": Object {
            "type": "string",
          },
        },
        "required": Array [
          "name",
          "id",
          "version",
        ],
        "type": "object",
      },
      "RunAgentInput": Object {
        "description": "The body of POST /agui (AG-UI). Additional properties are accepted.",
        "properties": Object {
          "context": Object {
            "items": Object {
              "$ref": "#/components/schemas/Context",
            },
            "type": "array",
          },
          "forwardedProps": Object {
            "description": "Any JSON value; an object may carry user_id",
          },
          "messages": Object {
            "items": Object {
              "$ref": "#/components/schemas/Message",
            },
            "type": "array",
          },
          "parentRunId": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "protocolVersion": Object {},
          "resume": Object {
            "anyOf": Array [
              Object {
                "items": Object {
                  "$ref": "#/components/schemas/ResumeEntry",
                },
                "type": "array",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "runId": Object {
            "description": "The id of the run to start",
            "type": "string",
          },
          "state": Object {
            "description": "Any JSON value; an object becomes the session state",
          },
          "threadId": Object {
            "description": "The session id",
            "type": "string",
          },
          "tools": Object {
            "items": Object {
              "$ref": "#/components/schemas/Tool",
            },
            "type": "array",
          },
        },
        "required": Array [
          "threadId",
          "runId",
          "state",
          "messages",
          "tools",
          "context",
          "forwardedProps",
        ],
        "title": "RunAgentInput",
        "type": "object",
      },
      "RunForm": Object {
        "properties": Object {
          "background": Object {
            "default": false,
            "type": "boolean",
          },
          "dependencies": Object {
            "description": "JSON object",
            "type": "string",
          },
          "files": Object {
            "items": Object {
              "format": "binary",
              "type": "string",
            },
            "type": "array",
          },
          "message": Object {
            "description": "The input",
            "type": "string",
          },
          "metadata": Object {
            "description": "JSON object",
            "type": "string",
          },
          "session_id": Object {
            "description": "Empty or absent: a new session",
            "type": "string",
          },
          "session_state": Object {
            "description": "JSON object",
            "type": "string",
          },
          "stream": Object {
            "default": true,
            "type": "boolean",
          },
          "user_id": Object {
            "type": "string",
          },
          "version": Object {
            "description": "Component config version to run",
            "type": "string",
          },
        },
        "required": Array [
          "message",
        ],
        "type": "object",
      },
      "RunOutput": Object {
        "description": "An agent, team or workflow run output",
        "properties": Object {
          "agent_id": Object {
            "type": "string",
          },
          "content": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "object",
              },
            ],
          },
          "content_type": Object {
            "type": "string",
          },
          "created_at": Object {
            "description": "Epoch seconds",
            "type": "integer",
          },
          "events": Object {
            "items": Object {
              "type": "object",
            },
            "type": "array",
          },
          "messages": Object {
            "items": Object {
              "type": "object",
            },
            "type": "array",
          },
          "metrics": Object {
            "type": "object",
          },
          "requirements": Object {
            "items": Object {
              "type": "object",
            },
            "type": "array",
          },
          "run_id": Object {
            "type": "string",
          },
          "session_id": Object {
            "type": "string",
          },
          "status": Object {
            "enum": Array [
              "PENDING",
              "RUNNING",
              "COMPLETED",
              "PAUSED",
              "CANCELLED",
              "ERROR",
              "REGENERATED",
            ],
            "type": "string",
          },
          "team_id": Object {
            "type": "string",
          },
          "tools": Object {
            "items": Object {
              "type": "object",
            },
            "type": "array",
          },
          "user_id": Object {
            "type": "string",
          },
          "workflow_id": Object {
            "type": "string",
          },
        },
        "required": Array [
          "run_id",
          "session_id",
          "status",
        ],
        "type": "object",
      },
      "RunSchema": Object {
        "description": "A stored run as sessions list it (RunSchema, TeamRunSchema, WorkflowRunSchema)",
        "properties": Object {
          "agent_id": Object {
            "type": "string",
          },
          "content": Object {},
          "created_at": Object {
            "format": "date-time",
            "type": "string",
          },
          "events": Object {
            "items": Object {
              "type": "object",
            },
            "type": "array",
          },
          "metrics": Object {},
          "parent_run_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "run_id": Object {
            "type": "string",
          },
          "run_input": Object {
            "type": "string",
          },
          "run_response_format": Object {
            "enum": Array [
              "json",
              "text",
            ],
            "type": "string",
          },
          "status": Object {
            "enum": Array [
              "PENDING",
              "RUNNING",
              "COMPLETED",
              "PAUSED",
              "CANCELLED",
              "ERROR",
            ],
            "type": "string",
          },
          "team_id": Object {
            "type": "string",
          },
          "user_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "workflow_id": Object {
            "type": "string",
          },
        },
        "required": Array [
          "run_id",
          "parent_run_id",
          "user_id",
          "status",
          "run_input",
          "content",
          "run_response_format",
          "metrics",
          "events",
          "created_at",
        ],
        "type": "object",
      },
      "Schedule": Object {
        "properties": Object {
          "created_at": Object {
            "description": "Epoch seconds",
            "type": "integer",
          },
          "cron_expr": Object {
            "description": "5-field cron expression",
            "type": "string",
          },
          "description": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "enabled": Object {
            "type": "boolean",
          },
          "endpoint": Object {
            "description": "A runtime path starting with /",
            "type": "string",
          },
          "id": Object {
            "type": "string",
          },
          "max_retries": Object {
            "maximum": 10,
            "minimum": 0,
            "type": "integer",
          },
          "method": Object {
            "enum": Array [
              "GET",
              "POST",
              "PUT",
              "PATCH",
              "DELETE",
            ],
            "type": "string",
          },
          "name": Object {
            "maxLength": 255,
            "pattern": "^[A-Za-z0-9][A-Za-z0-9 ._-]*$",
            "type": "string",
          },
          "next_run_at": Object {
            "anyOf": Array [
              Object {
                "description": "Epoch seconds",
                "type": "integer",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "payload": Object {
            "anyOf": Array [
              Object {
                "type": "object",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "retry_delay_seconds": Object {
            "maximum": 3600,
            "minimum": 1,
            "type": "integer",
          },
          "timeout_seconds": Object {
            "maximum": 86400,
            "minimum": 1,
            "type": "integer",
          },
          "timezone": Object {
            "type": "string",
          },
          "updated_at": Object {
            "description": "Epoch seconds",
            "type": "integer",
          },
        },
        "required": Array [
          "id",
          "name",
          "cron_expr",
          "endpoint",
          "method",
          "description",
          "payload",
          "timezone",
          "timeout_seconds",
          "max_retries",
          "retry_delay_seconds",
          "enabled",
          "next_run_at",
          "created_at",
          "updated_at",
        ],
        "type": "object",
      },
      "ScheduleCreate": Object {
        "additionalProperties": false,
        "properties": Object {
          "cron_expr": Object {
            "description": "5-field cron expression",
            "type": "string",
          },
          "description": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "endpoint": Object {
            "description": "A runtime path starting with /",
            "type": "string",
          },
          "max_retries": Object {
            "default": 0,
            "maximum": 10,
            "minimum": 0,
            "type": "integer",
          },
          "method": Object {
            "default": "POST",
            "enum": Array [
              "GET",
              "POST",
              "PUT",
              "PATCH",
              "DELETE",
            ],
            "type": "string",
          },
          "name": Object {
            "maxLength": 255,
            "pattern": "^[A-Za-z0-9][A-Za-z0-9 ._-]*$",
            "type": "string",
          },
          "payload": Object {
            "anyOf": Array [
              Object {
                "type": "object",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "retry_delay_seconds": Object {
            "default": 60,
            "maximum": 3600,
            "minimum": 1,
            "type": "integer",
          },
          "timeout_seconds": Object {
            "default": 3600,
            "maximum": 86400,
            "minimum": 1,
            "type": "integer",
          },
          "timezone": Object {
            "default": "UTC",
            "type": "string",
          },
        },
        "required": Array [
          "name",
          "cron_expr",
          "endpoint",
        ],
        "type": "object",
      },
      "ScheduleRun": Object {
        "properties": Object {
          "attempt": Object {
            "type": "integer",
          },
          "completed_at": Object {
            "anyOf": Array [
              Object {
                "description": "Epoch seconds",
                "type": "integer",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "created_at": Object {
            "description": "Epoch seconds",
            "type": "integer",
          },
          "error": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "id": Object {
            "type": "string",
          },
          "input": Object {},
          "output": Object {},
          "requirements": Object {},
          "run_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "schedule_id": Object {
            "type": "string",
          },
          "session_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "status": Object {
            "enum": Array [
              "running",
              "success",
              "failed",
              "paused",
              "cancelled",
            ],
            "type": "string",
          },
          "status_code": Object {
            "anyOf": Array [
              Object {
                "type": "integer",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "triggered_at": Object {
            "description": "Epoch seconds",
            "type": "integer",
          },
        },
        "required": Array [
          "id",
          "schedule_id",
          "attempt",
          "triggered_at",
          "completed_at",
          "status",
          "status_code",
          "run_id",
          "session_id",
          "error",
          "input",
          "output",
          "requirements",
          "created_at",
        ],
        "type": "object",
      },
      "ScheduleState": Object {
        "properties": Object {
          "enabled": Object {
            "type": "boolean",
          },
          "id": Object {
            "type": "string",
          },
          "name": Object {
            "type": "string",
          },
          "next_run_at": Object {
            "anyOf": Array [
              Object {
                "description": "Epoch seconds",
                "type": "integer",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "updated_at": Object {
            "description": "Epoch seconds",
            "type": "integer",
          },
        },
        "required": Array [
          "id",
          "name",
          "enabled",
          "next_run_at",
          "updated_at",
        ],
        "type": "object",
      },
      "ScheduleUpdate": Object {
        "additionalProperties": false,
        "properties": Object {
          "cron_expr": Object {
            "description": "5-field cron expression",
            "type": "string",
          },
          "description": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "endpoint": Object {
            "description": "A runtime path starting with /",
            "type": "string",
          },
          "max_retries": Object {
            "maximum": 10,
            "minimum": 0,
            "type": "integer",
          },
          "method": Object {
            "enum": Array [
              "GET",
              "POST",
              "PUT",
              "PATCH",
              "DELETE",
            ],
            "type": "string",
          },
          "name": Object {
            "maxLength": 255,
            "pattern": "^[A-Za-z0-9][A-Za-z0-9 ._-]*$",
            "type": "string",
          },
          "payload": Object {
            "anyOf": Array [
              Object {
                "type": "object",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "retry_delay_seconds": Object {
            "maximum": 3600,
            "minimum": 1,
            "type": "integer",
          },
          "timeout_seconds": Object {
            "maximum": 86400,
            "minimum": 1,
            "type": "integer",
          },
          "timezone": Object {
            "type": "string",
          },
        },
        "type": "object",
      },
      "SessionCreate": Object {
        "properties": Object {
          "agent_id": Object {
            "type": "string",
          },
          "metadata": Object {
            "type": "object",
          },
          "session_id": Object {
            "type": "string",
          },
          "session_name": Object {
            "type": "string",
          },
          "session_state": Object {
            "type": "object",
          },
          "team_id": Object {
            "type": "string",
          },
          "user_id": Object {
            "type": "string",
          },
          "workflow_id": Object {
            "type": "string",
          },
        },
        "type": "object",
      },
      "SessionDetail": Object {
        "description": "An agent, team or workflow session in detail (SessionSchema, its id again as <type>_session_id, and the chat history of its runs)",
        "properties": Object {
          "agent_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "agent_session_id": Object {
            "type": "string",
          },
          "chat_history": Object {
            "items": Object {
              "type": "object",
            },
            "type": "array",
          },
          "created_at": Object {
            "format": "date-time",
            "type": "string",
          },
          "metadata": Object {},
          "metrics": Object {},
          "session_id": Object {
            "type": "string",
          },
          "session_name": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "session_state": Object {},
          "session_summary": Object {},
          "session_type": Object {
            "enum": Array [
              "agent",
              "team",
              "workflow",
            ],
            "type": "string",
          },
          "team_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "team_session_id": Object {
            "type": "string",
          },
          "total_tokens": Object {
            "anyOf": Array [
              Object {
                "type": "integer",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "updated_at": Object {
            "format": "date-time",
            "type": "string",
          },
          "user_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "workflow_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "workflow_session_id": Object {
            "type": "string",
          },
        },
        "required": Array [
          "session_id",
          "session_name",
          "session_state",
          "session_type",
          "user_id",
          "agent_id",
          "team_id",
          "workflow_id",
          "session_summary",
          "metrics",
          "total_tokens",
          "metadata",
          "created_at",
          "updated_at",
          "chat_history",
        ],
        "type": "object",
      },
      "SessionRename": Object {
        "properties": Object {
          "session_name": Object {
            "type": "string",
          },
        },
        "required": Array [
          "session_name",
        ],
        "type": "object",
      },
      "SessionSchema": Object {
        "properties": Object {
          "agent_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "created_at": Object {
            "format": "date-time",
            "type": "string",
          },
          "metadata": Object {},
          "metrics": Object {},
          "session_id": Object {
            "type": "string",
          },
          "session_name": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "session_state": Object {},
          "session_summary": Object {},
          "session_type": Object {
            "enum": Array [
              "agent",
              "team",
              "workflow",
            ],
            "type": "string",
          },
          "team_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "total_tokens": Object {
            "anyOf": Array [
              Object {
                "type": "integer",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "updated_at": Object {
            "format": "date-time",
            "type": "string",
          },
          "user_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "workflow_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
        },
        "required": Array [
          "session_id",
          "session_name",
          "session_state",
          "session_type",
          "user_id",
          "agent_id",
          "team_id",
          "workflow_id",
          "session_summary",
          "metrics",
          "total_tokens",
          "metadata",
          "created_at",
          "updated_at",
        ],
        "type": "object",
      },
      "SessionsDelete": Object {
        "properties": Object {
          "session_ids": Object {
            "items": Object {
              "type": "string",
            },
            "minItems": 1,
            "type": "array",
          },
          "session_types": Object {
            "items": Object {
              "enum": Array [
                "agent",
                "team",
                "workflow",
              ],
              "type": "string",
            },
            "minItems": 1,
            "type": "array",
          },
        },
        "required": Array [
          "session_ids",
          "session_types",
        ],
        "type": "object",
      },
      "SessionUpdate": Object {
        "properties": Object {
          "metadata": Object {
            "type": "object",
          },
          "session_name": Object {
            "type": "string",
          },
          "session_state": Object {
            "type": "object",
          },
          "summary": Object {
            "properties": Object {
              "summary": Object {
                "type": "string",
              },
              "topics": Object {
                "items": Object {
                  "type": "string",
                },
                "type": "array",
              },
              "updated_at": Object {
                "type": "string",
              },
            },
            "required": Array [
              "summary",
            ],
            "type": "object",
          },
        },
        "type": "object",
      },
      "SourceFiles": Object {
        "properties": Object {
          "files": Object {
            "items": Object {
              "properties": Object {
                "content_type": Object {
                  "anyOf": Array [
                    Object {
                      "type": "string",
                    },
                    Object {
                      "type": "null",
                    },
                  ],
                },
                "key": Object {
                  "type": "string",
                },
                "last_modified": Object {
                  "type": "string",
                },
                "name": Object {
                  "type": "string",
                },
                "size": Object {
                  "type": "integer",
                },
              },
              "type": "object",
            },
            "type": "array",
          },
          "folders": Object {
            "items": Object {
              "properties": Object {
                "is_empty": Object {
                  "type": "boolean",
                },
                "name": Object {
                  "type": "string",
                },
                "prefix": Object {
                  "type": "string",
                },
              },
              "type": "object",
            },
            "type": "array",
          },
          "meta": Object {
            "properties": Object {
              "limit": Object {
                "type": "integer",
              },
              "page": Object {
                "type": "integer",
              },
              "total_count": Object {
                "type": "integer",
              },
              "total_pages": Object {
                "type": "integer",
              },
            },
            "required": Array [
              "page",
              "limit",
              "total_pages",
              "total_count",
            ],
            "type": "object",
          },
          "prefix": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "source_id": Object {
            "type": "string",
          },
          "source_name": Object {
            "type": "string",
          },
        },
        "required": Array [
          "source_id",
          "source_name",
          "prefix",
          "folders",
          "files",
          "meta",
        ],
        "type": "object",
      },
      "Status": Object {
        "properties": Object {
          "status": Object {
            "const": "available",
            "type": "string",
          },
        },
        "required": Array [
          "status",
        ],
        "type": "object",
      },
      "SystemMessage": Object {
        "properties": Object {
          "content": Object {
            "type": "string",
          },
          "encryptedValue": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "id": Object {
            "type": "string",
          },
          "metadata": Object {},
          "name": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "role": Object {
            "const": "system",
            "type": "string",
          },
          "subagentRunId": Object {},
        },
        "required": Array [
          "id",
          "role",
          "content",
        ],
        "type": "object",
      },
      "TeamContinueForm": Object {
        "properties": Object {
          "background": Object {
            "default": false,
            "type": "boolean",
          },
          "requirements": Object {
            "description": "JSON array of RunRequirement objects",
            "type": "string",
          },
          "session_id": Object {
            "description": "Required",
            "type": "string",
          },
          "stream": Object {
            "default": true,
            "type": "boolean",
          },
          "user_id": Object {
            "type": "string",
          },
        },
        "type": "object",
      },
      "TeamResponse": Object {
        "properties": Object {
          "current_version": Object {
            "type": "integer",
          },
          "db_id": Object {
            "type": "string",
          },
          "description": Object {
            "type": "string",
          },
          "id": Object {
            "type": "string",
          },
          "is_component": Object {
            "type": "boolean",
          },
          "is_factory": Object {
            "type": "boolean",
          },
          "members": Object {
            "items": Object {
              "anyOf": Array [
                Object {
                  "$ref": "#/components/schemas/AgentResponse",
                },
                Object {
                  "$ref": "#/components/schemas/TeamResponse",
                },
              ],
            },
            "type": "array",
          },
          "mode": Object {
            "enum": Array [
              "coordinate",
              "route",
              "broadcast",
              "tasks",
            ],
            "type": "string",
          },
          "name": Object {
            "type": "string",
          },
          "stage": Object {
            "type": "string",
          },
        },
        "required": Array [
          "id",
          "name",
        ],
        "type": "object",
      },
      "TextInputContent": Object {
        "properties": Object {
          "id": Object {},
          "metadata": Object {},
          "text": Object {
            "type": "string",
          },
          "type": Object {
            "const": "text",
            "type": "string",
          },
        },
        "required": Array [
          "type",
          "text",
        ],
        "type": "object",
      },
      "Tool": Object {
        "description": "A client tool the run may call (it pauses the run)",
        "properties": Object {
          "description": Object {
            "type": "string",
          },
          "metadata": Object {},
          "name": Object {
            "type": "string",
          },
          "parameters": Object {},
        },
        "required": Array [
          "name",
          "description",
        ],
        "type": "object",
      },
      "ToolCall": Object {
        "properties": Object {
          "encryptedValue": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "function": Object {
            "$ref": "#/components/schemas/FunctionCall",
          },
          "id": Object {
            "type": "string",
          },
          "metadata": Object {},
          "type": Object {
            "const": "function",
            "type": "string",
          },
        },
        "required": Array [
          "id",
          "function",
        ],
        "type": "object",
      },
      "ToolMessage": Object {
        "properties": Object {
          "content": Object {
            "type": "string",
          },
          "encryptedValue": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "error": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "id": Object {
            "type": "string",
          },
          "metadata": Object {},
          "role": Object {
            "const": "tool",
            "type": "string",
          },
          "subagentRunId": Object {},
          "toolCallId": Object {
            "type": "string",
          },
        },
        "required": Array [
          "id",
          "role",
          "content",
          "toolCallId",
        ],
        "type": "object",
      },
      "TraceDetail": Object {
        "properties": Object {
          "agent_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "created_at": Object {
            "format": "date-time",
            "type": "string",
          },
          "duration": Object {
            "description": "e.g. 123ms or 1.5s",
            "type": "string",
          },
          "end_time": Object {
            "format": "date-time",
            "type": "string",
          },
          "error": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "error_count": Object {
            "type": "integer",
          },
          "input": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "name": Object {
            "type": "string",
          },
          "output": Object {},
          "run_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "session_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "start_time": Object {
            "format": "date-time",
            "type": "string",
          },
          "status": Object {
            "enum": Array [
              "OK",
              "ERROR",
              "UNSET",
            ],
            "type": "string",
          },
          "team_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "total_spans": Object {
            "type": "integer",
          },
          "trace_id": Object {
            "type": "string",
          },
          "tree": Object {
            "items": Object {
              "$ref": "#/components/schemas/TraceNode",
            },
            "type": "array",
          },
          "user_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "workflow_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
        },
        "required": Array [
          "trace_id",
          "name",
          "status",
          "duration",
          "start_time",
          "end_time",
          "total_spans",
          "error_count",
          "created_at",
          "tree",
        ],
        "type": "object",
      },
      "TraceFilterSchema": Object {
        "properties": Object {
          "fields": Object {
            "items": Object {
              "properties": Object {
                "key": Object {
                  "type": "string",
                },
                "label": Object {
                  "type": "string",
                },
                "operators": Object {
                  "items": Object {
                    "type": "string",
                  },
                  "type": "array",
                },
                "type": Object {
                  "type": "string",
                },
                "values": Object {},
              },
              "required": Array [
                "key",
                "label",
                "type",
                "operators",
              ],
              "type": "object",
            },
            "type": "array",
          },
          "logical_operators": Object {
            "items": Object {
              "type": "string",
            },
            "type": "array",
          },
        },
        "required": Array [
          "fields",
          "logical_operators",
        ],
        "type": "object",
      },
      "TraceNode": Object {
        "properties": Object {
          "duration": Object {
            "type": "string",
          },
          "end_time": Object {
            "format": "date-time",
            "type": "string",
          },
          "error": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "extra_data": Object {
            "anyOf": Array [
              Object {
                "type": "object",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "id": Object {
            "type": "string",
          },
          "input": Object {},
          "metadata": Object {
            "anyOf": Array [
              Object {
                "type": "object",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "name": Object {
            "type": "string",
          },
          "output": Object {},
          "spans": Object {
            "items": Object {
              "$ref": "#/components/schemas/TraceNode",
            },
            "type": "array",
          },
          "start_time": Object {
            "format": "date-time",
            "type": "string",
          },
          "status": Object {
            "type": "string",
          },
          "step_type": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "type": Object {
            "enum": Array [
              "AGENT",
              "TEAM",
              "WORKFLOW",
              "LLM",
              "TOOL",
            ],
            "type": "string",
          },
        },
        "required": Array [
          "id",
          "name",
          "type",
          "duration",
          "start_time",
          "end_time",
          "status",
        ],
        "type": "object",
      },
      "TraceSearchRequest": Object {
        "properties": Object {
          "filter": Object {
            "anyOf": Array [
              Object {
                "type": "object",
              },
              Object {
                "type": "null",
              },
            ],
            "description": "Leaf {op: EQ|NEQ|GT|GTE|LT|LTE|IN|CONTAINS|STARTSWITH, key, value}, {op: AND|OR, conditions: [...]}, or {op: NOT, condition}",
          },
          "group_by": Object {
            "default": "run",
            "enum": Array [
              "run",
              "session",
            ],
            "type": "string",
          },
          "limit": Object {
            "default": 20,
            "maximum": 100,
            "minimum": 1,
            "type": "integer",
          },
          "page": Object {
            "default": 1,
            "minimum": 0,
            "type": "integer",
          },
        },
        "type": "object",
      },
      "TraceSessionStats": Object {
        "properties": Object {
          "agent_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "first_trace_at": Object {
            "format": "date-time",
            "type": "string",
          },
          "last_trace_at": Object {
            "format": "date-time",
            "type": "string",
          },
          "session_id": Object {
            "type": "string",
          },
          "team_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "total_traces": Object {
            "type": "integer",
          },
          "user_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "workflow_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
        },
        "required": Array [
          "session_id",
          "total_traces",
          "first_trace_at",
          "last_trace_at",
        ],
        "type": "object",
      },
      "TraceSummary": Object {
        "properties": Object {
          "agent_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "created_at": Object {
            "format": "date-time",
            "type": "string",
          },
          "duration": Object {
            "description": "e.g. 123ms or 1.5s",
            "type": "string",
          },
          "end_time": Object {
            "format": "date-time",
            "type": "string",
          },
          "error_count": Object {
            "type": "integer",
          },
          "input": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "name": Object {
            "type": "string",
          },
          "run_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "session_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "start_time": Object {
            "format": "date-time",
            "type": "string",
          },
          "status": Object {
            "enum": Array [
              "OK",
              "ERROR",
              "UNSET",
            ],
            "type": "string",
          },
          "team_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "total_spans": Object {
            "type": "integer",
          },
          "trace_id": Object {
            "type": "string",
          },
          "user_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "workflow_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
        },
        "required": Array [
          "trace_id",
          "name",
          "status",
          "duration",
          "start_time",
          "end_time",
          "total_spans",
          "error_count",
          "created_at",
        ],
        "type": "object",
      },
      "UserMemory": Object {
        "properties": Object {
          "agent_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "memory": Object {
            "type": "string",
          },
          "memory_id": Object {
            "type": "string",
          },
          "team_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "topics": Object {
            "items": Object {
              "type": "string",
            },
            "type": "array",
          },
          "updated_at": Object {
            "format": "date-time",
            "type": "string",
          },
          "user_id": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
        },
        "required": Array [
          "memory_id",
          "memory",
          "topics",
          "agent_id",
          "team_id",
          "user_id",
          "updated_at",
        ],
        "type": "object",
      },
      "UserMemoryStats": Object {
        "properties": Object {
          "last_memory_updated_at": Object {
            "anyOf": Array [
              Object {
                "format": "date-time",
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "total_memories": Object {
            "type": "integer",
          },
          "user_id": Object {
            "type": "string",
          },
        },
        "required": Array [
          "user_id",
          "total_memories",
          "last_memory_updated_at",
        ],
        "type": "object",
      },
      "UserMessage": Object {
        "properties": Object {
          "content": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "items": Object {
                  "$ref": "#/components/schemas/InputContent",
                },
                "type": "array",
              },
            ],
          },
          "encryptedValue": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "id": Object {
            "type": "string",
          },
          "metadata": Object {},
          "name": Object {
            "anyOf": Array [
              Object {
                "type": "string",
              },
              Object {
                "type": "null",
              },
            ],
          },
          "role": Object {
            "const": "user",
            "type": "string",
          },
          "subagentRunId": Object {},
        },
        "required": Array [
          "id",
          "role",
          "content",
        ],
        "type": "object",
      },
      "ValidationError": Object {
        "properties": Object {
          "ctx": Object {
            "title": "Context",
            "type": "object",
          },
          "input": Object {
            "title": "Input",
          },
          "loc": Object {
            "items": Object {
              "anyOf": Array [
                Object {
                  "type": "string",
                },
                Object {
                  "type": "integer",
                },
              ],
            },
            "title": "Location",
            "type": "array",
          },
          "msg": Object {
            "title": "Message",
            "type": "string",
          },
          "type": Object {
            "title": "Error Type",
            "type": "string",
          },
        },
        "required": Array [
          "loc",
          "msg",
          "type",
        ],
        "title": "ValidationError",
        "type": "object",
      },
      "VideoInputContent": Object {
        "properties": Object {
          "id": Object {},
          "metadata": Object {},
          "source": Object {
            "discriminator": Object {
              "mapping": Object {
                "data": "#/components/schemas/InputContentDataSource",
                "url": "#/components/schemas/InputContentUrlSource",
              },
              "propertyName": "type",
            },
            "oneOf": Array [
              Object {
                "$ref": "#/components/schemas/InputContentDataSource",
              },
              Object {
                "$ref": "#/components/schemas/InputContentUrlSource",
              },
            ],
          },
          "type": Object {
            "const": "video",
            "type": "string",
          },
        },
        "required": Array [
          "type",
          "source",
        ],
        "type": "object",
      },
      "WorkflowContinueForm": Object {
        "properties": Object {
          "background": Object {
            "default": false,
            "type": "boolean",
          },
          "session_id": Object {
            "description": "Required",
            "type": "string",
          },
          "step_requirements": Object {
            "description": "JSON array of StepRequirement objects",
            "type": "string",
          },
          "stream": Object {
            "default": true,
            "type": "boolean",
          },
          "user_id": Object {
            "type": "string",
          },
        },
        "type": "object",
      },
      "WorkflowResponse": Object {
        "properties": Object {
          "current_version": Object {
            "type": "integer",
          },
          "db_id": Object {
            "type": "string",
          },
          "description": Object {
            "type": "string",
          },
          "id": Object {
            "type": "string",
          },
          "is_component": Object {
            "type": "boolean",
          },
          "is_factory": Object {
            "type": "boolean",
          },
          "name": Object {
            "type": "string",
          },
          "stage": Object {
            "type": "string",
          },
          "steps": Object {
            "items": Object {
              "properties": Object {
                "description": Object {
                  "type": "string",
                },
                "name": Object {
                  "type": "string",
                },
                "step_type": Object {
                  "type": "string",
                },
              },
              "type": "object",
            },
            "type": "array",
          },
          "workflow_agent": Object {
            "type": "boolean",
          },
        },
        "required": Array [
          "id",
          "name",
        ],
        "type": "object",
      },
    },
    "securitySchemes": Object {
      "HTTPBearer": Object {
        "description": "A JWT, service-account token or security key, checked by the gateway",
        "scheme": "bearer",
        "type": "http",
      },
    },
  },
  "info": Object {
    "description": "The scopegate agent runtime: agents, teams and workflows with their runs, sessions, memories, learnings, knowledge, metrics, evals, traces, schedules and approvals, plus the AG-UI and A2A interfaces (Agno AgentOS 2.7.2 compatible). Every route except /, /health, /info and the documentation pages is reached through the scopegate gateway with a bearer token carrying the scope the route requires.",
    "title": "Agno AgentOS",
    "version": "2.7.2",
  },
  "openapi": "3.1.0",
  "paths": Array [
    "/",
    "/health",
    "/info",
    "/config",
    "/models",
    "/registry",
    "/databases/all/migrate",
    "/databases/{db_id}/migrate",
    "/agents",
    "/agents/{agent_id}",
    "/agents/{agent_id}/runs",
    "/agents/{agent_id}/runs/{run_id}",
    "/agents/{agent_id}/runs/{run_id}/continue",
    "/agents/{agent_id}/runs/{run_id}/cancel",
    "/teams",
    "/teams/{team_id}",
    "/teams/{team_id}/runs",
    "/teams/{team_id}/runs/{run_id}",
    "/teams/{team_id}/runs/{run_id}/continue",
    "/teams/{team_id}/runs/{run_id}/cancel",
    "/workflows",
    "/workflows/{workflow_id}",
    "/workflows/{workflow_id}/runs",
    "/workflows/{workflow_id}/runs/{run_id}",
    "/workflows/{workflow_id}/runs/{run_id}/continue",
    "/workflows/{workflow_id}/runs/{run_id}/cancel",
    "/sessions",
    "/sessions/{session_id}",
    "/sessions/{session_id}/rename",
    "/sessions/{session_id}/runs",
    "/sessions/{session_id}/runs/{run_id}",
    "/components",
    "/components/{component_id}",
    "/components/{component_id}/configs",
    "/components/{component_id}/configs/current",
    "/components/{component_id}/configs/{version}",
    "/components/{component_id}/configs/{version}/set-current",
    "/memories",
    "/memories/{memory_id}",
    "/memory_topics",
    "/user_memory_stats",
    "/optimize-memories",
    "/learnings",
    "/learnings/users",
    "/learnings/users/{user_id}",
    "/learnings/{learning_id}",
    "/knowledge/content",
    "/knowledge/remote-content",
    "/knowledge/content/{content_id}",
    "/knowledge/content/{content_id}/status",
    "/knowledge/search",
    "/knowledge/config",
    "/knowledge/{knowledge_id}/sources",
    "/knowledge/{knowledge_id}/sources/{source_id}/files",
    "/metrics",
    "/metrics/refresh",
    "/eval-runs",
    "/eval-runs/{eval_run_id}",
    "/traces",
    "/traces/filter-schema",
    "/traces/{trace_id}",
    "/trace_session_stats",
    "/traces/search",
    "/schedules",
    "/schedules/{schedule_id}",
    "/schedules/{schedule_id}/enable",
    "/schedules/{schedule_id}/disable",
    "/schedules/{schedule_id}/trigger",
    "/schedules/{schedule_id}/runs",
    "/schedules/{schedule_id}/runs/{run_id}",
    "/approvals",
    "/approvals/count",
    "/approvals/{approval_id}",
    "/approvals/{approval_id}/status",
    "/approvals/{approval_id}/resolve",
    "/status",
    "/agui",
    "/a2a/agents/{id}/.well-known/agent-card.json",
    "/a2a/agents/{id}/v1/card",
    "/a2a/agents/{id}/v1",
    "/a2a/agents/{id}/v1/message:send",
    "/a2a/agents/{id}/v1/message:stream",
    "/a2a/agents/{id}/v1/tasks:get",
    "/a2a/agents/{id}/v1/tasks:cancel",
    "/a2a/agents/{id}/v1/tasks",
    "/a2a/agents/{id}/v1/tasks/{task_id}",
    "/a2a/teams/{id}/.well-known/agent-card.json",
    "/a2a/teams/{id}/v1/card",
    "/a2a/teams/{id}/v1",
    "/a2a/teams/{id}/v1/message:send",
    "/a2a/teams/{id}/v1/message:stream",
    "/a2a/teams/{id}/v1/tasks:get",
    "/a2a/teams/{id}/v1/tasks:cancel",
    "/a2a/teams/{id}/v1/tasks",
    "/a2a/teams/{id}/v1/tasks/{task_id}",
    "/a2a/workflows/{id}/.well-known/agent-card.json",
    "/a2a/workflows/{id}/v1/card",
    "/a2a/workflows/{id}/v1",
    "/a2a/workflows/{id}/v1/message:send",
    "/a2a/workflows/{id}/v1/message:stream",
    "/a2a/message/send",
    "/a2a/message/stream",
  ],
  "security": Array [
    Object {
      "HTTPBearer": Array [],
    },
  ],
}
`
