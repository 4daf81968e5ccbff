/**
 * Runs workflow JSON through n8n's real engine (n8n-core's WorkflowExecute) in-process.
 *
 * The package is loaded the way n8n loads a community package: from the built `dist/` files
 * listed in the `n8n` section of package.json. Credentials are applied through the credential
 * type's own `authenticate` definition, resolved with the workflow's expression engine, as
 * n8n's CredentialsHelper does.
 */
import { fs, path, ROOT } from '../support/node';
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IConnections,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IRun,
	IRunData,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
	Workflow as WorkflowType,
} from 'n8n-workflow';
import { ICredentialsHelper, LoggerProxy, NodeHelpers, Workflow } from 'n8n-workflow';

/** Every line n8n's logger received during the test run (tests assert that no secret is in them). */
export const logLines: string[] = [];
const capture =
	(level: string) =>
	(message: string, meta?: object): void => {
		let extra = '';
		try {
			extra = meta ? JSON.stringify(meta) : '';
		} catch {
			extra = String(meta);
		}
		logLines.push(`${level} ${message} ${extra}`);
	};
LoggerProxy.init({
	error: capture('error'),
	warn: capture('warn'),
	info: capture('info'),
	debug: capture('debug'),
	scoped: () => LoggerProxy,
} as never);

export const PACKAGE_NAME = 'n8n-nodes-campaign-messaging';

interface LoadedPackage {
	nodes: Map<string, INodeType>;
	credentials: Map<string, ICredentialType>;
}

let loaded: LoadedPackage | undefined;

/** Loads the built package from dist/ through package.json's `n8n` section. */
export function loadPackage(): LoadedPackage {
	if (loaded) return loaded;
	const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
		n8n: { nodes: string[]; credentials: string[] };
	};
	const nodes = new Map<string, INodeType>();
	const credentials = new Map<string, ICredentialType>();
	const instantiate = (file: string): unknown | undefined => {
		const full = path.join(ROOT, file);
		if (!fs.existsSync(full)) return undefined;
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const mod = require(full) as Record<string, new () => unknown>;
		const className = path.basename(file).split('.')[0];
		return new mod[className]();
	};
	for (const file of pkg.n8n.nodes) {
		const node = instantiate(file) as INodeType | undefined;
		if (!node) continue; // the build check test asserts that every listed file exists
		nodes.set(`${PACKAGE_NAME}.${node.description.name}`, node);
	}
	for (const file of pkg.n8n.credentials) {
		const credential = instantiate(file) as ICredentialType | undefined;
		if (!credential) continue;
		credentials.set(credential.name, credential);
	}
	loaded = { nodes, credentials };
	return loaded;
}

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

class PackageNodeTypes implements INodeTypes {
	constructor(private readonly types: Map<string, INodeType>) {}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		return this.getByNameAndVersion(nodeType);
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		const type = this.types.get(nodeType);
		if (!type) throw new Error(`Unknown node type ${nodeType} (is it built? run "npm run build")`);
		return NodeHelpers.getVersionedNodeType(type, version) as INodeType;
	}

	getKnownTypes() {
		return {};
	}
}

class TestCredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly types: Map<string, ICredentialType>,
		private readonly data: Record<string, ICredentialDataDecryptedObject>,
	) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
		workflow?: WorkflowType,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const type = this.types.get(typeName);
		const auth = type?.authenticate;
		if (!auth) return requestOptions;
		if (typeof auth === 'function') return await auth(credentials, requestOptions);
		if (!workflow || !node) throw new Error('authenticate needs the workflow and the node');
		const resolve = (value: string): string =>
			value.startsWith('=')
				? String(
						workflow.expression.getSimpleParameterValue(
							node,
							value,
							'internal',
							{ $credentials: credentials },
							undefined,
							'',
						) ?? '',
					)
				: value;
		const options = requestOptions as unknown as Record<string, Record<string, string>>;
		for (const [outer, values] of Object.entries(auth.properties)) {
			options[outer] = options[outer] ?? {};
			for (const [key, value] of Object.entries(values as Record<string, string>)) {
				options[outer][resolve(key)] = resolve(value);
			}
		}
		return requestOptions;
	}

	async preAuthentication() {
		return undefined;
	}

	async runPreAuthentication() {
		return undefined;
	}

	async getCredentials(): Promise<never> {
		throw new Error('not used in tests');
	}

	async getDecrypted(_additionalData: unknown, _nodeCredentials: unknown, type: string) {
		const data = this.data[type];
		if (!data) throw new Error(`No test credentials of type ${type}`);
		return { ...data };
	}

	async updateCredentials() {}

	async updateCredentialsOauthTokenData() {}

	getCredentialsProperties(type: string) {
		return this.types.get(type)?.properties ?? [];
	}
}

export interface RunOptions {
	nodes: INode[];
	/** Test-only node types, by full type name. */
	extraTypes?: Record<string, INodeType>;
	connections: IConnections;
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** Workflow time zone (default UTC). */
	timezone?: string;
}

export interface RunResult {
	run: IRun;
	runData: IRunData;
	/** The outputs of a node's last run (one array per output). */
	outputs(nodeName: string): INodeExecutionData[][];
	/** The error of the execution, if it stopped on one. */
	error: IRun['data']['resultData']['error'];
}

/** Runs a whole workflow from its first node. */
export async function runWorkflow(options: RunOptions): Promise<RunResult> {
	const pkg = loadPackage();
	const types = new Map(pkg.nodes);
	types.set(SOURCE_TYPE, sourceNode);
	for (const [name, type] of Object.entries(options.extraTypes ?? {})) types.set(name, type);
	const nodeTypes = new PackageNodeTypes(types);
	const workflow = new Workflow({
		id: 'test-workflow',
		name: 'Test workflow',
		nodes: options.nodes,
		connections: options.connections,
		active: false,
		nodeTypes,
		settings: { timezone: options.timezone ?? 'UTC', executionOrder: 'v1' },
	});
	const hooks = new ExecutionLifecycleHooks('manual', 'test-execution', {
		id: 'test-workflow',
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
	const run = await execute.run({ workflow, startNode });
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
	retryOnFail?: boolean;
	maxTries?: number;
	waitBetweenTries?: number;
	timezone?: string;
}

export const NODE_NAME = 'Campaign';

/** Runs Source -> the package node and returns the node's outputs. */
export async function runNode(options: NodeRun): Promise<RunResult & { out: INodeExecutionData[][] }> {
	const node: INode = {
		id: 'node-under-test',
		name: NODE_NAME,
		type: options.type.includes('.') ? options.type : `${PACKAGE_NAME}.${options.type}`,
		typeVersion: 1,
		position: [200, 0],
		parameters: options.parameters as INode['parameters'],
		credentials: { campaignApi: { id: '1', name: 'Campaign API' } },
		onError: options.onError,
		retryOnFail: options.retryOnFail,
		maxTries: options.maxTries,
		waitBetweenTries: options.waitBetweenTries,
	};
	const source: INode = {
		id: 'source',
		name: 'Source',
		type: SOURCE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: { items: JSON.stringify(options.input) },
	};
	const result = await runWorkflow({
		nodes: [source, node],
		connections: { Source: { main: [[{ node: NODE_NAME, type: 'main', index: 0 }]] } },
		credentials: options.credentials ? { campaignApi: options.credentials } : {},
		timezone: options.timezone,
		extraTypes: options.extraTypes,
	});
	return { ...result, out: result.outputs(NODE_NAME) };
}
