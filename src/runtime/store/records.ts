/**
 * The rows the runtime store keeps: plain, JSON-serializable data. No behaviour lives here, and
 * nothing here knows about SQL or HTTP shapes (routes build SessionSchema/RunSchema from these).
 */

/** Which kind of component a session belongs to. */
export type SessionType = 'agent' | 'team' | 'workflow';

/** Lifecycle state of a run. */
export type RunStatus = 'PENDING' | 'RUNNING' | 'COMPLETED' | 'PAUSED' | 'CANCELLED' | 'ERROR';

/** A session's summary (Agno `SessionSummary`), as PATCH /sessions/{id} sets it. */
export interface SessionSummary {
  summary: string;
  /** `null` when none were given. */
  topics: string[] | null;
  /** Epoch seconds (an integer). */
  updated_at: number;
}

/** One stored session. */
export interface SessionRecord {
  session_id: string;
  session_type: SessionType;
  /** The agent, team or workflow id. */
  component_id: string;
  /** Owner; `null` for sessions created without a user. */
  user_id: string | null;
  /** The stored name; `null` when never named. */
  session_name: string | null;
  session_state: Record<string, unknown>;
  metadata: Record<string, unknown> | null;
  /** `null` until one is set. */
  session_summary: SessionSummary | null;
  /** Epoch seconds (an integer). */
  created_at: number;
  /** Epoch seconds (an integer). */
  updated_at: number;
}

/** One stored run inside a session. */
export interface RunRecord {
  run_id: string;
  session_id: string;
  session_type: SessionType;
  /** The agent, team or workflow id. */
  component_id: string;
  parent_run_id: string | null;
  user_id: string | null;
  status: RunStatus;
  /** The run input message. */
  input: string;
  /** The full run output dict, kept as JSON. */
  output: Record<string, unknown>;
  /** What the engine needs to continue a PAUSED run (JSON, opaque here); null otherwise. */
  checkpoint: unknown;
  /** Epoch seconds (an integer). */
  created_at: number;
  /** Epoch seconds (an integer). */
  updated_at: number;
}

/** One stored memory. */
export interface MemoryRecord {
  memory_id: string;
  memory: string;
  topics: string[];
  /** Every memory has an owner. */
  user_id: string;
  agent_id: string | null;
  team_id: string | null;
  /** Epoch seconds. */
  created_at: number;
  /** Epoch seconds. */
  updated_at: number;
}

/** One stored learning. */
export interface LearningRecord {
  learning_id: string;
  learning_type: string;
  namespace: string | null;
  /** `null`: shared by everyone (ownerless). */
  user_id: string | null;
  agent_id: string | null;
  team_id: string | null;
  session_id: string | null;
  entity_id: string | null;
  entity_type: string | null;
  content: Record<string, unknown>;
  metadata: Record<string, unknown> | null;
  /** Epoch seconds. */
  created_at: number;
  /** Epoch seconds. */
  updated_at: number;
}
