/**
 * Fault injection: which requests are faulted (deterministic with a seed) and what a fault answers.
 */
import type { RequestContext } from './context';
import { envelope, htmlReply, JSON_TYPE, triggerReply, type Reply } from './envelope';
import type { FaultConfig, FaultKind } from './types';

/** mulberry32: a tiny seeded PRNG giving floats in [0, 1). */
export function mulberry32(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/**
 * Decides per request. Decisions:
 * - The decision is taken when the request arrives, in arrival order (before latency), so the
 *   sequence only depends on the seed and the order of requests.
 * - `firstN` set: only the first N matching requests can be faulted; inside that window `rate`
 *   (default 1) decides. No `firstN`: `rate` (default 1: every matching request) decides forever.
 * - For every matching request inside the window the PRNG is drawn once for the rate and once for
 *   the kind, so the sequence does not depend on the rate value or the number of kinds.
 * - A new injector (fresh counter and seed) is made on configure({faults}) and on reset().
 */
export class FaultInjector {
	private readonly random: () => number;
	private matched = 0;

	constructor(private readonly config: FaultConfig | undefined) {
		this.random = mulberry32(config?.seed ?? 1);
	}

	get phase(): 'before' | 'after' {
		return this.config?.phase ?? 'before';
	}

	decide(req: { method: string; path: string }): FaultKind | undefined {
		const config = this.config;
		if (!config || config.kinds.length === 0) return undefined;
		if (config.match && !config.match(req)) return undefined;
		const index = this.matched++;
		if (config.firstN !== undefined && index >= config.firstN) return undefined;
		const hit = this.random() < (config.rate ?? 1);
		const kind = config.kinds[Math.floor(this.random() * config.kinds.length)];
		return hit ? kind : undefined;
	}
}

/** What the server does for a fault that answers nothing. */
export type FaultAction =
	| { action: 'drop' }
	| { action: 'hang' }
	| { action: 'stall' | 'drip'; reply: Reply }
	| { action: 'reply'; reply: Reply };

/**
 * The answer of a faulted request. `real` is the reply the request produced (phase 'after'), or
 * undefined (phase 'before': the request was not processed).
 * - http50Xhtml: an HTML error page with that status (no envelope).
 * - emptyBody: HTTP 200, Content-Type JSON, no bytes.
 * - code-9999 / code-9998 / code-1005: the envelope with that processCode (HTTP 200, or the mapped
 *   status in errorHttpStatus 'mapped' mode); on the trigger path too (decision: the kind is what
 *   the test asked for).
 * - code2000 / code7998 / code7999: HTTP 500 in the configured triggerResponse shape (on any path).
 * - truncatedJson: the first half of the real JSON body (phase 'before': of a success envelope),
 *   with the real status (phase 'before': 200).
 * - drop: the socket is destroyed without an answer; hang: no answer until the client gives up or
 *   the sandbox closes.
 * - stallBody: the real status and headers and the first half of the real body (phase 'before': of
 *   a success envelope), then nothing; dripBody: the same headers, then one space every 500 ms,
 *   until the client gives up or the sandbox closes.
 */
export function renderFault(
	kind: FaultKind,
	ctx: RequestContext,
	real: Reply | undefined,
): FaultAction {
	switch (kind) {
		case 'drop':
			return { action: 'drop' };
		case 'hang':
			return { action: 'hang' };
		case 'stallBody':
		case 'dripBody':
			return {
				action: kind === 'stallBody' ? 'stall' : 'drip',
				reply: real ?? { ...envelope(ctx, 0, null), status: 200 },
			};
		case 'http500html':
			return { action: 'reply', reply: htmlReply(500) };
		case 'http502html':
			return { action: 'reply', reply: htmlReply(502) };
		case 'http503html':
			return { action: 'reply', reply: htmlReply(503) };
		case 'emptyBody':
			return { action: 'reply', reply: { status: 200, body: '', contentType: JSON_TYPE } };
		case 'code-9999':
			return { action: 'reply', reply: envelope(ctx, -9999, null) };
		case 'code-9998':
			return { action: 'reply', reply: envelope(ctx, -9998, null) };
		case 'code-1005':
			return { action: 'reply', reply: envelope(ctx, -1005, null) };
		case 'code2000':
			return { action: 'reply', reply: triggerReply(ctx, 2000) };
		case 'code7998':
			return { action: 'reply', reply: triggerReply(ctx, 7998) };
		case 'code7999':
			return { action: 'reply', reply: triggerReply(ctx, 7999) };
		case 'truncatedJson': {
			const source =
				real && real.body.length > 1 ? real : { ...envelope(ctx, 0, null), status: 200 };
			// Half of a JSON object or array always leaves a bracket open: never parseable.
			const body = source.body.slice(0, Math.max(1, Math.floor(source.body.length / 2)));
			return { action: 'reply', reply: { status: source.status, body, contentType: JSON_TYPE } };
		}
	}
}
