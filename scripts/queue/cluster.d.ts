/** Types of scripts/queue/cluster.js (CommonJS), for the queue-mode tests in test/queue. */
import type { RuntimePaths, RunResult } from '../runtime';

export interface ServiceHandle {
	host: string;
	port: number;
	pid: number;
	stop(): Promise<void>;
}

export interface PostgresHandle extends ServiceHandle {
	user: string;
	password: string;
	database: string;
}

export interface ExecutionRow {
	id: number;
	workflowId: string;
	status: string;
	mode: string;
	finished: boolean;
	startedAt: Date | null;
	stoppedAt: Date | null;
	retryOf: string | null;
}

export interface Database {
	query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
	executions(filter?: { workflowId?: string; sinceId?: number }): Promise<ExecutionRow[]>;
	/** The execution's stored IRunExecutionData (untyped JSON), undefined when none. */
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	runData(id: number | string): Promise<any>;
	waitForExecutions(options: {
		workflowId: string;
		count: number;
		sinceId?: number;
		timeoutMs?: number;
		pollMs?: number;
	}): Promise<ExecutionRow[]>;
	close(): Promise<void>;
}

export interface N8nProcess {
	name: string;
	pid: number;
	url: string;
	logFile: string;
	userFolder: string;
	startMs: number;
	index?: number;
	exited: Promise<unknown>;
	alive(): boolean;
	stop(): Promise<void>;
	/** Signals the whole process group (n8n and its task runner); resolves once n8n exited. */
	kill(signal?: NodeJS.Signals): Promise<void>;
	log(): string;
}

export interface WorkerSpec {
	/** Install the package into this worker's user folder (default true). */
	install?: boolean;
	env?: Record<string, string>;
}

export interface ClusterOptions {
	workers?: number | WorkerSpec[];
	concurrency?: number;
	webhook?: boolean;
	/** A tarball path or registry spec for `npm install` in each user folder; false: none. */
	package?: string | false;
	env?: Record<string, string>;
	mainEnv?: Record<string, string>;
	home?: string;
	credentials?: Array<{ id: string; name: string; type: string; data: Record<string, unknown> }>;
	workflows?: string[];
	publish?: string[];
}

export interface Cluster {
	dir: string;
	paths: RuntimePaths;
	postgres: PostgresHandle;
	redis: ServiceHandle;
	env: Record<string, string>;
	main: N8nProcess;
	webhook?: N8nProcess;
	workers: N8nProcess[];
	/** The owner's session cookie for main's REST API. */
	cookie: string;
	db: Database;
	startMs: number;
	resources(): { pids: number[]; ports: number[] };
	/** An n8n CLI command against the cluster's database (main's user folder). */
	cli(args: string[]): Promise<RunResult>;
	stop(): Promise<void>;
}

export declare function startCluster(options?: ClusterOptions): Promise<Cluster>;
export declare function installIntoUserFolder(userFolder: string, spec: string): Promise<void>;
export declare function queueEnv(postgres: PostgresHandle, redis: ServiceHandle): Record<string, string>;
