/**
 * The package as n8n sees it, for the engine runner (engine.ts): the built `dist/` files listed in
 * the `n8n` section of package.json, loaded the way n8n loads a community package; node types
 * served from them; credentials applied through the credential type's own `authenticate`
 * definition, resolved with the workflow's expression engine, as n8n's CredentialsHelper does.
 * Every line n8n's logger receives is kept in `logLines`.
 *
 * `npm run test:unit` (jest.unit.config.js) sets CAMPAIGN_PACKAGE_FROM=sources: each listed file
 * is then loaded from its TypeScript source (`dist/nodes/X.node.js` -> `nodes/X.node.ts`, compiled
 * by ts-jest), so the node tests run without a build.
 */
import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestOptions,
	INode,
	INodeType,
	INodeTypes,
	IVersionedNodeType,
	Workflow as WorkflowType,
} from 'n8n-workflow';
import { ICredentialsHelper, LoggerProxy, NodeHelpers } from 'n8n-workflow';
import { env, fs, path, processWide, ROOT } from './node';

/**
 * Every line n8n's logger received during the test run (tests assert that no secret is in them):
 * one list per process, as n8n's logger is one.
 */
export const logLines: string[] = processWide('test.log-lines', () => []);
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

/** Whether the package is loaded from its sources (`npm run test:unit`) instead of dist/. */
export const FROM_SOURCES = env.CAMPAIGN_PACKAGE_FROM === 'sources';

/** The file to load for an entry of the `n8n` section: itself, or its TypeScript source. */
const fileToLoad = (file: string): string =>
	FROM_SOURCES ? file.replace(/^dist\//, '').replace(/\.js$/, '.ts') : file;

interface LoadedPackage {
	nodes: Map<string, INodeType>;
	credentials: Map<string, ICredentialType>;
}

const loaded = new Map<string, LoadedPackage>();

/**
 * Loads the package through package.json's `n8n` section (built, from dist/; or from the sources
 * under `npm run test:unit`), from this checkout or from another one (`root`: the benchmark's
 * --baseline runs the same workloads on a second tree).
 */
export function loadPackage(root: string = ROOT): LoadedPackage {
	const cached = loaded.get(root);
	if (cached) return cached;
	const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
		n8n: { nodes: string[]; credentials: string[] };
	};
	const nodes = new Map<string, INodeType>();
	const credentials = new Map<string, ICredentialType>();
	const instantiate = (file: string): unknown | undefined => {
		const full = path.join(root, fileToLoad(file));
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
	const result = { nodes, credentials };
	loaded.set(root, result);
	return result;
}

export class PackageNodeTypes implements INodeTypes {
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

export class TestCredentialsHelper extends ICredentialsHelper {
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
