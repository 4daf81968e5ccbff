/** Types of scripts/runtime/index.js (CommonJS), for the end-to-end tests in test/e2e. */

export declare const ROOT: string;
export declare const N8N_VERSION: string;
export declare const NODE_VERSION: string;
export declare const PLAYWRIGHT_CORE_VERSION: string;
export declare const PACKAGE_NAME: string;
export declare const ENCRYPTION_KEY: string;
export declare const CHROMIUM_PATH: string;
export declare const SANDBOX_CREDENTIAL: { id: string; name: string; type: string };
export declare const OWNER: { email: string; firstName: string; lastName: string; password: string };

export interface RuntimePaths {
	dir: string;
	nodeDir: string;
	node: string;
	n8n: string;
	playwrightCore: string;
	marker: string;
}

export interface RunResult {
	code: number | null;
	signal: string | null;
	stdout: string;
	stderr: string;
	ms: number;
}

export interface ExecuteResult {
	/** The JSON n8n printed (IRun-like: `data.resultData.runData`), undefined when none parsed. */
	data: unknown;
	stdout: string;
	stderr: string;
	code: number | null;
	ms: number;
}

export interface StartedN8n {
	url: string;
	port: number;
	logFile: string;
	startMs: number;
	stop(): Promise<void>;
}

export interface OwnerLogin {
	email: string;
	password: string;
	created: boolean;
	/** The `n8n-auth` cookie of a logged-in owner session ("name=value"). */
	cookie: string;
}

export interface HttpResponse {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	body: string;
}

export declare function setQuiet(value: boolean): void;
export declare function log(message: string): void;
export declare function formatDuration(ms: number): string;
export declare function cacheRoot(): string;
export declare function runtimeDir(): string;
export declare function runtimePaths(dir?: string): RuntimePaths;
export declare function ensureRuntime(): Promise<RuntimePaths>;
export declare function ensureChromium(): Promise<string>;
export declare function chromiumArgs(userDataDir?: string): string[];
export declare function buildPackage(): Promise<void>;
export declare function buildSandbox(): Promise<string>;
export declare function findSandboxBuild(): string | undefined;
export declare function packPackage(dest: string): Promise<string>;
export declare function missingDistFiles(): string[];
export declare function createUserFolder(parent?: string, prefix?: string): string;
export declare function installPackage(userFolder: string, tarball: string): Promise<string>;
export declare function n8nEnv(userFolder: string, extra?: Record<string, string>): Record<string, string>;
export declare function n8nCli(
	paths: RuntimePaths,
	userFolder: string,
	args: string[],
	options?: { env?: Record<string, string>; timeoutMs?: number },
): Promise<RunResult>;
export declare function importCredentials(
	paths: RuntimePaths,
	userFolder: string,
	credentials: Array<{ id: string; name: string; type: string; data: Record<string, unknown> }>,
): Promise<RunResult>;
export declare function importWorkflows(paths: RuntimePaths, userFolder: string, files: string[]): Promise<RunResult>;
export declare function parseRawOutput(stdout: string): unknown;
export declare function executeWorkflow(
	paths: RuntimePaths,
	userFolder: string,
	id: string,
	options?: { timeoutMs?: number },
): Promise<ExecuteResult>;
export declare function freePort(preferred?: number): Promise<number>;
export declare function httpGet(url: string, options?: { timeoutMs?: number }): Promise<HttpResponse>;
export declare function httpRequest(
	method: string,
	url: string,
	options?: { body?: unknown; headers?: Record<string, string>; timeoutMs?: number },
): Promise<HttpResponse>;
export declare function startN8n(
	paths: RuntimePaths,
	userFolder: string,
	options?: { port?: number; env?: Record<string, string>; timeoutMs?: number; logFile?: string },
): Promise<StartedN8n>;
export declare function setupOwner(url: string): Promise<OwnerLogin>;

/** The part of playwright-core's API the end-to-end tests use (it is loaded from the runtime folder). */
export interface Locator {
	first(): Locator;
	click(): Promise<void>;
	fill(value: string): Promise<void>;
	waitFor(options?: { timeout?: number; state?: 'attached' | 'detached' | 'visible' | 'hidden' }): Promise<void>;
	innerText(): Promise<string>;
	allInnerTexts(): Promise<string[]>;
	evaluateAll<R, E = unknown>(fn: (elements: E[]) => R): Promise<R>;
}

export interface Page {
	goto(url: string, options?: { timeout?: number }): Promise<unknown>;
	locator(selector: string, options?: { hasText?: string | RegExp }): Locator;
	getByText(text: string | RegExp): Locator;
	getByRole(role: string, options?: { name?: string | RegExp }): Locator;
	screenshot(options: { path: string; fullPage?: boolean }): Promise<unknown>;
	waitForURL(url: (url: URL) => boolean, options?: { timeout?: number }): Promise<void>;
	keyboard: { press(key: string): Promise<void> };
	close(): Promise<void>;
}

export interface BrowserContext {
	newPage(): Promise<Page>;
	close(): Promise<void>;
}

export interface Browser {
	newContext(options?: { viewport?: { width: number; height: number } }): Promise<BrowserContext>;
	close(): Promise<void>;
}

export interface Playwright {
	chromium: {
		launch(options: { executablePath: string; args: string[]; headless: boolean }): Promise<Browser>;
	};
}

export declare function loadPlaywright(paths: RuntimePaths): Playwright;
