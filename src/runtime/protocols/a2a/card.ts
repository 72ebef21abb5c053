/**
 * The A2A agent card of an agent, team or workflow: one card for 1.0 and 0.3
 * clients (`supportedInterfaces` for 1.0, the 0.3 top-level fields kept), and the public base
 * URL it is built on: the gateway's `x-forwarded-proto` / `x-forwarded-host`, else the Host
 * header. Pure.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Entity } from '../../api/runs/service.js';

/** The 0.3 protocol version of the card's top-level fields (0.3 clients read those). */
const PROTOCOL_VERSION = '0.3.0';

/** The URL path segment of each kind. */
const KIND_PATH: Readonly<Record<Entity['kind'], string>> = Object.freeze({
  agent: 'agents',
  team: 'teams',
  workflow: 'workflows',
});

/**
 * The public origin of a request: `x-forwarded-proto` and `x-forwarded-host` (first value each)
 * as the gateway sets them, else `http` and the Host header (`host`).
 */
export function publicOrigin(headers: IncomingHttpHeaders, host: string): string {
  const proto = firstValue(headers['x-forwarded-proto']) ?? 'http';
  return `${proto}://${firstValue(headers['x-forwarded-host']) ?? host}`;
}

/**
 * The card of `entity` served under `base` (`<origin><prefix>`). `supportedInterfaces` lists, in
 * the order clients prefer them, JSON-RPC 1.0 and HTTP+JSON 1.0 at `…/v1` (one endpoint for
 * every JSON-RPC method; HTTP+JSON appends `/message:send`, `/tasks/{id}`, …), JSON-RPC 0.3 at
 * the same endpoint, and HTTP+JSON 0.3 at the entity's root (its client appends
 * `/v1/message:send`, …). The 0.3 top-level `url` is the JSON-RPC endpoint. The version strings
 * are exactly "1.0" and "0.3": clients pick an interface by string equality. Workflows do not
 * stream. The keys are the a2a 0.3 AgentCard's in Agno's (alphabetical) order, optional ones
 * Agno leaves unset as null.
 */
export function agentCardOf(entity: Entity, base: string) {
  const root = `${base}/${KIND_PATH[entity.kind]}/${entity.id}`;
  const url = `${root}/v1`;
  const description = entity.description ?? '';
  return {
    additionalInterfaces: [
      { transport: 'JSONRPC', url },
      { transport: 'HTTP+JSON', url: root },
    ],
    capabilities: {
      extendedAgentCard: false,
      extensions: null,
      pushNotifications: false,
      stateTransitionHistory: false,
      streaming: entity.kind !== 'workflow',
    },
    defaultInputModes: ['text'],
    defaultOutputModes: ['text'],
    description,
    documentationUrl: null,
    iconUrl: null,
    name: entity.name,
    preferredTransport: 'JSONRPC',
    protocolVersion: PROTOCOL_VERSION,
    provider: null,
    security: null,
    securitySchemes: null,
    signatures: null,
    skills: [
      {
        description,
        examples: ['search', 'ok'],
        id: entity.id,
        inputModes: null,
        name: entity.name,
        outputModes: ['application/json'],
        security: null,
        tags: ['agno'],
      },
    ],
    supportedInterfaces: [
      { url, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      { url, protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      { url: root, protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' },
    ],
    supportsAuthenticatedExtendedCard: false,
    url,
    version: '1.0.0',
  };
}

function firstValue(value: string | string[] | undefined): string | undefined {
  const first = (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim();
  return first === undefined || first === '' ? undefined : first;
}
