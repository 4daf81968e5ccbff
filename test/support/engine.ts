/**
 * Runs workflow JSON through n8n's real engine (n8n-core's WorkflowExecute) in-process, with the
 * package loaded from dist/ (see package-loader.ts): `runWorkflow` for a whole workflow, `runNode`
 * for Source -> one package node.
 */
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IConnections,
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeType,
	IRun,
	IRunData,
	IWorkflowExecuteAdditionalData,
	NodeExecutionHint,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';
import {
	PACKAGE_NAME,
	PackageNodeTypes,
	TestCredentialsHelper,
	loadPackage,
} from './package-loader';
import { processWide } from './node';

export { PACKAGE_NAME, loadPackage, logLines } from './package-loader';

/** A start node for tests: emits the items given in its `items` parameter. */
const sourceNode: INodeType = {
	description: {
		displayName: 'Test Source',
		name: 'testSource',
		group: ['input'],
		version: 1,
		description: 'Emits fixed items',
		defaults: { name: 'Source' },
		inputs: [],
		outputs: ['main'],
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }],
	},
	async execute(this: IExecuteFunctions) {
		const raw = this.getNodeParameter('items', 0) as unknown;
		const items = (typeof raw === 'string' ? JSON.parse(raw) : raw) as IDataObject[];
		return [items.map((json) => ({ json }))];
	},
};

export const SOURCE_TYPE = 'test.source';

export interface RunOptions {
	nodes: INode[];
	/** Test-only node types, by full type name. */
	extraTypes?: Record<string, INodeType>;
	connections: IConnections;
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** Workflow time zone (default UTC). */
	timezone?: string;
	/** The checkout whose dist/ provides the package (default this one). */
	packageRoot?: string;
	/**
	 * Once this settles, the execution is stopped as n8n's Stop button does it (the engine's
	 * promise is cancelled: the execution's cancel signal aborts, no further node starts).
	 */
	stop?: Promise<unknown>;
}

export interface RunResult {
	run: IRun;
	runData: IRunData;
	/** The outputs of a node's last run (one array per output). */
	outputs(nodeName: string): INodeExecutionData[][];
	/** The execution hints of a node's last run (what the editor shows above its output). */
	hints(nodeName: string): NodeExecutionHint[];
	/** The error of the execution, if it stopped on one. */
	error: IRun['data']['resultData']['error'];
}

/**
 * `WorkflowExecute.run` takes one options object in recent n8n-core releases and positional
 * arguments (workflow, start node) in older ones (1.x, 2.0): the compatibility tests
 * (jest.compat.config.js) run this harness against both.
 */
async function runEngine(
	execute: WorkflowExecute,
	workflow: Workflow,
	startNode: INode | undefined,
	stop: Promise<unknown> | undefined,
): Promise<IRun> {
	type Cancelable = Promise<IRun> & { cancel(): void };
	const run = execute.run as unknown as (...args: unknown[]) => Cancelable;
	const running =
		run.length === 1
			? run.call(execute, { workflow, startNode })
			: run.call(execute, workflow, startNode);
	void stop?.then(
		() => running.cancel(),
		() => running.cancel(),
	);
	return await running;
}

/** The test file whose modules load now: test/support/compat-suites.ts sets it, nothing else does. */
export const currentSuite = processWide('test.suite', () => ({
	file: undefined as string | undefined,
}));

/**
 * The workflow id every workflow of a test file runs under: `test-workflow`, or, when
 * test/support/compat-suites.ts loads many files into one process over one deduplication store,
 * one named after the file, so that a store round still under way from an earlier file never
 * touches this file's rows.
 */
export const TEST_WORKFLOW_ID = `test-workflow${currentSuite.file ? `:${currentSuite.file}` : ''}`;

/** Runs a whole workflow from its first node. */
export async function runWorkflow(options: RunOptions): Promise<RunResult> {
	const pkg = loadPackage(options.packageRoot);
	const types = new Map(pkg.nodes);
	types.set(SOURCE_TYPE, sourceNode);
	for (const [name, type] of Object.entries(options.extraTypes ?? {})) types.set(name, type);
	const nodeTypes = new PackageNodeTypes(types);
	const workflow = new Workflow({
		id: TEST_WORKFLOW_ID,
		name: 'Test workflow',
		nodes: options.nodes,
		connections: options.connections,
		active: false,
		nodeTypes,
		settings: { timezone: options.timezone ?? 'UTC', executionOrder: 'v1' },
	});
	const hooks = new ExecutionLifecycleHooks('manual', 'test-execution', {
		id: TEST_WORKFLOW_ID,
		name: 'Test workflow',
		nodes: options.nodes,
		connections: options.connections,
		active: false,
		activeVersionId: null,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		settings: {},
	} as never);
	const additionalData = {
		credentialsHelper: new TestCredentialsHelper(pkg.credentials, options.credentials ?? {}),
		hooks,
		executionId: 'test-execution',
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://127.0.0.1/rest',
		instanceBaseUrl: 'http://127.0.0.1/',
		formBaseUrl: 'http://127.0.0.1:5678/formBaseUrl',
		formWaitingBaseUrl: 'http://127.0.0.1:5678/formWaitingBaseUrl',
		formTestBaseUrl: 'http://127.0.0.1:5678/formTestBaseUrl',
		webhookBaseUrl: 'http://127.0.0.1:5678/webhookBaseUrl',
		webhookWaitingBaseUrl: 'http://127.0.0.1:5678/webhookWaitingBaseUrl',
		webhookTestBaseUrl: 'http://127.0.0.1:5678/webhookTestBaseUrl',
		mcpBaseUrl: 'http://127.0.0.1:5678/mcpBaseUrl',
		mcpTestBaseUrl: 'http://127.0.0.1:5678/mcpTestBaseUrl',
		variables: {},
		logAiEvent: () => {},
		executeWorkflow: async () => {
			throw new Error('not used in tests');
		},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		startRunnerTask: async () => {
			throw new Error('not used in tests');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
	const execute = new WorkflowExecute(additionalData, 'manual');
	const startNode = workflow.getNode(options.nodes[0].name) ?? undefined;
	const run = await runEngine(execute, workflow, startNode, options.stop);
	const runData = run.data.resultData.runData;
	return {
		run,
		runData,
		error: run.data.resultData.error,
		outputs(nodeName: string) {
			const runs = runData[nodeName];
			if (!runs || runs.length === 0) return [];
			const last = runs[runs.length - 1];
			return (last.data?.main ?? []).map((output) => output ?? []);
		},
		hints(nodeName: string) {
			const runs = runData[nodeName] ?? [];
			return runs[runs.length - 1]?.hints ?? [];
		},
	};
}

export interface NodeRun {
	/** The node's type `name` (without the package prefix), e.g. "campaignAlimtalk", or a full test type name. */
	type: string;
	extraTypes?: Record<string, INodeType>;
	parameters: IDataObject;
	/** Items fed into the node. */
	input: IDataObject[];
	credentials?: ICredentialDataDecryptedObject;
	/** Node settings: "On Error" and "Retry On Fail". */
	onError?: INode['onError'];
	/** The node's version as a saved workflow holds it (default 1). */
	typeVersion?: number;
	retryOnFail?: boolean;
	maxTries?: number;
	waitBetweenTries?: number;
	timezone?: string;
	/** Stops the execution once it settles (see RunOptions.stop). */
	stop?: Promise<unknown>;
}

export const NODE_NAME = 'Campaign';

/** Runs Source -> the package node and returns the node's outputs. */
export async function runNode(
	options: NodeRun,
): Promise<RunResult & { out: INodeExecutionData[][]; nodeHints: NodeExecutionHint[] }> {
	const node: INode = {
		id: 'node-under-test',
		name: NODE_NAME,
		type: options.type.includes('.') ? options.type : `${PACKAGE_NAME}.${options.type}`,
		typeVersion: options.typeVersion ?? 1,
		position: [200, 0],
		parameters: options.parameters as INode['parameters'],
		credentials: { campaignApi: { id: '1', name: 'Campaign API' } },
		onError: options.onError,
		retryOnFail: options.retryOnFail,
		maxTries: options.maxTries,
		waitBetweenTries: options.waitBetweenTries,
	};
	const result = await runWorkflow({
		nodes: [sourceOf(options.input), node],
		connections: { Source: { main: [[{ node: NODE_NAME, type: 'main', index: 0 }]] } },
		credentials: options.credentials ? { campaignApi: options.credentials } : {},
		timezone: options.timezone,
		extraTypes: options.extraTypes,
		stop: options.stop,
	});
	return { ...result, out: result.outputs(NODE_NAME), nodeHints: result.hints(NODE_NAME) };
}

/** A node of a test workflow: version 1 at the origin, no parameters unless `more` sets them. */
export function nodeOf(id: string, name: string, type: string, more: Partial<INode> = {}): INode {
	return { id, name, type, typeVersion: 1, position: [0, 0], parameters: {}, ...more };
}

/** The node named Source that emits `input` as its items (the start of every test workflow). */
export function sourceOf(input: unknown): INode {
	return nodeOf('source', 'Source', SOURCE_TYPE, { parameters: { items: JSON.stringify(input) } });
}
