/**
 * The sandbox fixture every suite uses: `const sb = useSandbox(options)` at the top of a file (or
 * a describe block) starts one sandbox before its tests, puts it back as it was started (options,
 * state, request log) before each test, and closes it after them. `sb` stands in for the started
 * sandbox, so tests read `sb.baseUrl`, `sb.state`, `sb.requests` as usual.
 */
import { startSandbox } from '../../sandbox/server';
import type { Sandbox, SandboxOptions } from '../../sandbox/types';

/** Every option a test may change, at its default (configure() restores a default on undefined). */
const DEFAULTS: Partial<SandboxOptions> = {
	latencyMs: undefined,
	stringCodes: undefined,
	pagingEnd: undefined,
	pageSize: undefined,
	errorHttpStatus: undefined,
	v1ColMisspelling: undefined,
	v2FailureShape: undefined,
	triggerResponse: undefined,
	faults: undefined,
};

/** Clears state and log and puts every option except apiKey/accounts back to `options` or its default. */
export function restore(sb: Sandbox, options: SandboxOptions = {}): void {
	const changeable = Object.fromEntries(
		Object.entries(options).filter(([name]) => name in DEFAULTS),
	);
	sb.configure({ ...DEFAULTS, ...changeable });
	sb.reset();
}

export function useSandbox(options: SandboxOptions = {}): Sandbox {
	let started: Sandbox | undefined;
	beforeAll(async () => {
		started = await startSandbox(options);
	});
	beforeEach(() => restore(current(), options));
	afterAll(async () => {
		await started?.close();
	});
	const current = (): Sandbox => {
		if (!started)
			throw new Error('the sandbox is used outside its tests (useSandbox starts it in beforeAll)');
		return started;
	};
	return new Proxy({} as Sandbox, {
		get(_target, property) {
			const sb = current();
			const value: unknown = Reflect.get(sb, property, sb);
			return typeof value === 'function'
				? (value as (...args: unknown[]) => unknown).bind(sb)
				: value;
		},
		set(_target, property, value) {
			return Reflect.set(current(), property, value);
		},
	});
}
