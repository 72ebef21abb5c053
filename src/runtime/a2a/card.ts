/**
 * The A2A agent card of an agent, team or workflow (protocol 0.3.0), and the
 * public base URL it is built on: the gateway's `x-forwarded-proto` / `x-forwarded-host`, else
 * the Host header. Pure.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Entity } from '../run-service.js';

/** The A2A protocol version the runtime speaks (@a2a-js/sdk 0.3). */
export const PROTOCOL_VERSION = '0.3.0';

/** The URL path segment of each kind. */
export const KIND_PATH: Readonly<Record<Entity['kind'], string>> = Object.freeze({
  agent: 'agents',
  team: 'teams',
  workflow: 'workflows',
});

/** One `additionalInterfaces` entry. */
export interface CardInterface {
  readonly transport: 'JSONRPC' | 'HTTP+JSON';
  readonly url: string;
}

/**
 * An agent card as served: the a2a 0.3 AgentCard keys in Agno's (alphabetical) order, optional
 * ones Agno leaves unset as null.
 */
export interface A2AAgentCard {
  readonly additionalInterfaces: readonly CardInterface[];
  readonly capabilities: {
    readonly extensions: null;
    readonly pushNotifications: false;
    readonly stateTransitionHistory: false;
    readonly streaming: boolean;
  };
  readonly defaultInputModes: readonly string[];
  readonly defaultOutputModes: readonly string[];
  readonly description: string;
  readonly documentationUrl: null;
  readonly iconUrl: null;
  readonly name: string;
  readonly preferredTransport: 'JSONRPC';
  readonly protocolVersion: string;
  readonly provider: null;
  readonly security: null;
  readonly securitySchemes: null;
  readonly signatures: null;
  readonly skills: readonly {
    readonly description: string;
    readonly examples: readonly string[];
    readonly id: string;
    readonly inputModes: null;
    readonly name: string;
    readonly outputModes: readonly string[];
    readonly security: null;
    readonly tags: readonly string[];
  }[];
  readonly supportsAuthenticatedExtendedCard: false;
  readonly url: string;
  readonly version: string;
}

/**
 * The public origin of a request: `x-forwarded-proto` and `x-forwarded-host` (first value each)
 * as the gateway sets them, else `http` and the Host header (`host`).
 */
export function publicOrigin(headers: IncomingHttpHeaders, host: string): string {
  const proto = firstValue(headers['x-forwarded-proto']) ?? 'http';
  return `${proto}://${firstValue(headers['x-forwarded-host']) ?? host}`;
}

/**
 * The card of `entity` served under `base` (`<origin><prefix>`). Its `url` is the JSON-RPC
 * streaming endpoint, as Agno's; `additionalInterfaces` also names the HTTP+JSON binding, whose
 * URL is the entity's root (RestTransport appends `/v1/message:send`, `/v1/tasks/{id}`, …).
 * Workflows do not stream.
 */
export function agentCardOf(entity: Entity, base: string): A2AAgentCard {
  const root = `${base}/${KIND_PATH[entity.kind]}/${entity.id}`;
  const url = `${root}/v1/message:stream`;
  const description = entity.description ?? '';
  return {
    additionalInterfaces: [
      { transport: 'JSONRPC', url },
      { transport: 'HTTP+JSON', url: root },
    ],
    capabilities: {
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
    supportsAuthenticatedExtendedCard: false,
    url,
    version: '1.0.0',
  };
}

function firstValue(value: string | string[] | undefined): string | undefined {
  const first = (Array.isArray(value) ? value[0] : value)?.split(',')[0]?.trim();
  return first === undefined || first === '' ? undefined : first;
}
