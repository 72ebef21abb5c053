/**
 * Eval runs (not user-owned, so never confined to a caller): run an eval
 * against an agent or team of the live catalogue and store it, list them with filters, read,
 * rename and bulk-delete them. Shapes HTTP only: the evaluation lives in evaluate.ts, the rows
 * in table.ts. Each route declares its input and answer (schemas.ts); the lifecycle checks the
 * input before a handler runs. Never checks scopes: the gateway did.
 */
import type { FastifyInstance } from 'fastify';
import type { Catalogue } from '../../catalogue/definitions.js';
import type { EngineDeps } from '../../engine/run.js';
import { HttpError } from '../../http/errors.js';
import { evaluate } from './evaluate.js';
import type { EvalProbes } from './performance.js';
import type { EvalSubject } from './subject-run.js';
import {
  EVAL_SORTS,
  EVAL_TYPES,
  type EvalQuery,
  type EvalRunRecord,
  type EvalStore,
  type EvalType,
} from './table.js';
import {
  createEvalBody,
  deleteEvalsBody,
  EVAL_TAGS,
  evalInputOf,
  evalParams,
  evalPlanOf,
  evalRunSchema,
  listEvalsQuery,
  renameEvalBody,
  type CreateEvalBody,
  type EvalRunResponse,
} from './schemas.js';
import { isoOfSeconds } from '../../engine/time.js';
import { listOf, paginated } from '../../http/list-query.js';
import { acceptEmptyJsonBody } from '../../http/json-body.js';
import { empty, errors, ok } from '../../http/openapi.js';
import { sectionSchemas, type CheckedTypes } from '../../http/validation.js';
import { DB_ONLY, paginatedOf } from '../../http/openapi-shapes.js';

/** The schemas of this file's routes (validation.ts). */
const { checked } = sectionSchemas(EVAL_TAGS);

/** What the eval routes run and store with. */
export interface EvalRouteDeps {
  /** The live catalogue: an eval runs the agent or team as it is now. */
  readonly catalogue: Catalogue;
  readonly store: EvalStore;
  readonly engine: EngineDeps;
  /** Time and memory of performance evals. */
  readonly probes: EvalProbes;
}

/** A stored eval run as {@link evalRunSchema} writes it. */
export function evalSchema(run: EvalRunRecord): EvalRunResponse {
  return {
    id: run.run_id,
    agent_id: run.agent_id,
    model_id: run.model_id,
    model_provider: run.model_provider,
    team_id: run.team_id,
    workflow_id: run.workflow_id,
    name: run.name,
    evaluated_component_name: run.evaluated_component_name,
    eval_type: run.eval_type,
    eval_data: run.eval_data,
    eval_input: run.eval_input,
    created_at: isoOfSeconds(run.created_at),
    updated_at: isoOfSeconds(run.updated_at),
  };
}

const KNOWN_TYPES: ReadonlySet<string> = new Set(EVAL_TYPES);

/**
 * The `eval_types` query parameter: a comma list of eval types (absent or empty: no filter).
 * An unknown one is Agno's hand-made 422 with a string detail.
 */
export function evalTypesQuery(value: string | undefined): EvalType[] | undefined {
  if (!value) return undefined;
  const types = value.split(',').map((item) => item.trim());
  const bad = types.find((item) => !KNOWN_TYPES.has(item));
  if (bad !== undefined) {
    throw new HttpError(
      422,
      `Invalid eval_type: '${bad}' is not a valid EvalType. Valid types: ${EVAL_TYPES.join(', ')}`,
    );
  }
  return types as EvalType[];
}

/** The agent or team a body names (exactly one), from the live catalogue. */
function subjectOf(catalogue: Catalogue, body: CreateEvalBody): EvalSubject {
  // Empty ids count as absent, as Agno tests them for truth.
  const agentId = body.agent_id || null;
  const teamId = body.team_id || null;
  if (agentId !== null && teamId !== null) {
    throw new HttpError(400, 'Only one of agent_id or team_id must be provided');
  }
  if (agentId !== null) {
    const agent = catalogue.agents.get(agentId);
    if (agent === undefined) throw new HttpError(404, `Agent with id '${agentId}' not found`);
    return agent;
  }
  if (teamId === null) throw new HttpError(400, 'One of agent_id or team_id must be provided');
  const team = catalogue.teams.get(teamId);
  if (team === undefined) throw new HttpError(404, `Team with id '${teamId}' not found`);
  return team;
}

/** Registers `/eval-runs` and `/eval-runs/{eval_run_id}`. */
export function registerEvalRoutes(app: FastifyInstance, deps: EvalRouteDeps): void {
  const { store } = deps;
  const notFound = (id: string): HttpError =>
    new HttpError(404, `Eval run with id '${id}' not found`);

  // Their own Fastify scope, whose JSON parser reads an empty body as no body: a body-less
  // request is then pydantic's `missing` 422, not a parser error.
  void app.register(async (plain) => {
    acceptEmptyJsonBody(plain);
    const scope = plain.withTypeProvider<CheckedTypes>();

    const listSchema = checked('List eval runs', {
      querystring: listEvalsQuery,
      response: { 200: ok('Eval runs', paginatedOf(evalRunSchema)), ...errors('404', '422') },
    });
    scope.get('/eval-runs', { schema: listSchema }, async (request) => {
      const q = request.query;
      const evalTypes = evalTypesQuery(q.eval_types);
      const { page, limit, sortBy, sortOrder } = listOf(q, EVAL_SORTS, 'created_at');
      const query: EvalQuery = {
        agentId: q.agent_id,
        teamId: q.team_id,
        workflowId: q.workflow_id,
        modelId: q.model_id,
        componentType: q.type,
        evalTypes,
        page,
        limit,
        sortBy,
        sortOrder,
      };
      const { rows, total } = await store.list(query);
      return paginated(rows.map(evalSchema), page, limit, total);
    });

    const getSchema = checked('One eval run', {
      params: evalParams,
      querystring: DB_ONLY,
      response: { 200: ok('The eval run', evalRunSchema), ...errors('404') },
    });
    scope.get('/eval-runs/:eval_run_id', { schema: getSchema }, async (request) => {
      const run = await store.get(request.params.eval_run_id);
      if (run === null) throw notFound(request.params.eval_run_id);
      return evalSchema(run);
    });

    const createSchema = checked('Run an eval against an agent or team', {
      querystring: DB_ONLY,
      body: createEvalBody,
      response: { 200: ok('The eval run', evalRunSchema), ...errors('400', '404', '422') },
    });
    scope.post('/eval-runs', { schema: createSchema }, async (request) => {
      const body = request.body;
      const subject = subjectOf(deps.catalogue, body);
      const plan = evalPlanOf(body);
      const outcome = await evaluate(subject, plan, { engine: deps.engine, probes: deps.probes });
      const now = Math.floor(deps.engine.clock.now() / 1000);
      const run: EvalRunRecord = {
        run_id: deps.engine.newId(),
        eval_type: body.eval_type,
        name: body.name ?? null,
        agent_id: subject.kind === 'agent' ? subject.id : null,
        team_id: subject.kind === 'team' ? subject.id : null,
        workflow_id: null,
        model_id: outcome.model,
        model_provider: outcome.modelProvider,
        evaluated_component_name: subject.name,
        eval_data: outcome.evalData,
        eval_input: evalInputOf(body),
        created_at: now,
        updated_at: now,
      };
      await store.put(run);
      return evalSchema(run);
    });

    const renameSchema = checked('Rename an eval run', {
      params: evalParams,
      querystring: DB_ONLY,
      body: renameEvalBody,
      response: { 200: ok('Renamed', evalRunSchema), ...errors('404', '422') },
    });
    scope.patch('/eval-runs/:eval_run_id', { schema: renameSchema }, async (request) => {
      const { name } = request.body;
      const now = Math.floor(deps.engine.clock.now() / 1000);
      const run = await store.rename(request.params.eval_run_id, name, now);
      if (run === null) throw notFound(request.params.eval_run_id);
      return evalSchema(run);
    });

    const deleteSchema = checked('Delete eval runs', {
      querystring: DB_ONLY,
      body: deleteEvalsBody,
      response: { 204: empty('Deleted'), ...errors('404', '422') },
    });
    scope.delete('/eval-runs', { schema: deleteSchema }, async (request, reply) => {
      const body = request.body;
      await store.delete(body.eval_run_ids);
      return reply.code(204).send();
    });
  });
}
