/**
 * The A2A agent card and the public origin it is built on.
 */
import t from 'tap';
import { agentCardOf, publicOrigin } from '../../../../src/runtime/protocols/a2a/card.js';
import { buildCatalogue } from '../../../../src/runtime/catalogue/resolve.js';
import type { Catalogue } from '../../../../src/runtime/catalogue/definitions.js';
import type { Entity } from '../../../../src/runtime/api/runs/service.js';
import { SETTINGS } from '../../fixtures/runtime.js';

const catalogue = buildCatalogue(SETTINGS).catalogue as Catalogue;

t.test('the public origin: x-forwarded-proto/host (first value), else http and Host', async (t) => {
  const rows = [
    { headers: {}, origin: 'http://rt:8081' },
    { headers: { 'x-forwarded-host': 'gw.example' }, origin: 'http://gw.example' },
    { headers: { 'x-forwarded-proto': 'https' }, origin: 'https://rt:8081' },
    {
      headers: { 'x-forwarded-proto': 'https, http', 'x-forwarded-host': 'a.example, b.example' },
      origin: 'https://a.example',
    },
    { headers: { 'x-forwarded-proto': ['https', 'http'] }, origin: 'https://rt:8081' },
    { headers: { 'x-forwarded-proto': '', 'x-forwarded-host': ' ' }, origin: 'http://rt:8081' },
  ];
  for (const row of rows) {
    t.equal(publicOrigin(row.headers, 'rt:8081'), row.origin, JSON.stringify(row.headers));
  }
});

t.test('an agent card: 1.0 interfaces first, JSON-RPC at …/v1, the 0.3 fields kept', async (t) => {
  const card = agentCardOf(catalogue.agents.get('a1') as Entity, 'https://gw/a2a');
  t.same(card, {
    additionalInterfaces: [
      { transport: 'JSONRPC', url: 'https://gw/a2a/agents/a1/v1' },
      { transport: 'HTTP+JSON', url: 'https://gw/a2a/agents/a1' },
    ],
    capabilities: {
      extendedAgentCard: false,
      extensions: null,
      pushNotifications: false,
      stateTransitionHistory: false,
      streaming: true,
    },
    defaultInputModes: ['text'],
    defaultOutputModes: ['text'],
    description: 'Adds and remembers.',
    documentationUrl: null,
    iconUrl: null,
    name: 'Agent One',
    preferredTransport: 'JSONRPC',
    protocolVersion: '0.3.0',
    provider: null,
    security: null,
    securitySchemes: null,
    signatures: null,
    skills: [
      {
        description: 'Adds and remembers.',
        examples: ['search', 'ok'],
        id: 'a1',
        inputModes: null,
        name: 'Agent One',
        outputModes: ['application/json'],
        security: null,
        tags: ['agno'],
      },
    ],
    supportedInterfaces: [
      { url: 'https://gw/a2a/agents/a1/v1', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: 'https://gw/a2a/agents/a1/v1', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      { url: 'https://gw/a2a/agents/a1/v1', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      { url: 'https://gw/a2a/agents/a1', protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' },
    ],
    supportsAuthenticatedExtendedCard: false,
    url: 'https://gw/a2a/agents/a1/v1',
    version: '1.0.0',
  });
});

t.test('teams stream, workflows do not; no description is ""', async (t) => {
  const team = agentCardOf(catalogue.teams.get('t2') as Entity, 'http://h/api/a2a');
  t.equal(team.url, 'http://h/api/a2a/teams/t2/v1');
  t.equal(team.description, '');
  t.equal(team.skills[0]?.description, '');
  t.equal(team.capabilities.streaming, true);
  const flow = agentCardOf(catalogue.workflows.get('w1') as Entity, 'http://h/a2a');
  t.equal(flow.url, 'http://h/a2a/workflows/w1/v1');
  t.same(flow.additionalInterfaces[1], {
    transport: 'HTTP+JSON',
    url: 'http://h/a2a/workflows/w1',
  });
  t.equal(flow.capabilities.streaming, false);
  t.equal(flow.name, 'Flow One');
});
