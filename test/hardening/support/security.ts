/**
 * Shared by the security suites (security-api-key.test.ts, security-injection.test.ts): one
 * scripted server per test, its answers counted as bad responses and closed after the test, and
 * the scan of what reached it (the key, headers a value injected).
 */
import { startScripted, type Answer, type ScriptedServer } from '../../support/scripted-server';
import { checkHeaders, scanRequests, tally } from './scan';

/** The scripted server of the running test, once `scripted` started it (a live binding). */
export let server: ScriptedServer | undefined;

/** Closes the running test's scripted server after each test (call once at the top of a file). */
export function useScripted(): void {
	afterEach(async () => {
		await server?.close();
		server = undefined;
	});
}

export async function scripted(answer: (index: number, url: URL) => Answer) {
	server = await startScripted((req, index) => {
		tally.badResponses++;
		return answer(index, new URL(req.url, 'http://127.0.0.1'));
	});
	return server;
}

export const afterScripted = (label: string) => {
	scanRequests(
		label,
		(server?.seen ?? []).map((s) => ({ body: s.body, url: s.url })),
	);
	for (const s of server?.seen ?? []) checkHeaders(label, s.headers as Record<string, unknown>);
};
