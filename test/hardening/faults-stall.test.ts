/**
 * A server that sends the headers and then stalls or drips the body (faults injected by the
 * sandbox): the node's Timeout covers the whole answer, so every run ends on its own. A read
 * gives up with "the request timed out" (an error item under "Continue", else a thrown error);
 * a send that reached the service is Failed with deliveryUnknown and sent once.
 */
import type { FaultKind } from '../../sandbox/server';
import {
	countSandbox,
	credentials,
	expectTimedOutSend,
	pairsOf,
	prepareCampaigns,
	prepareData,
	run,
	sendOne,
	useHardeningSandbox,
} from './support';
import { CUSTOM } from '../support';

const sb = useHardeningSandbox('faults-stall');

/** Long enough for a run with Timeout 1000 ms, far too short for one that never ends. */
const ENDS_WITHIN_MS = 15000;
const TIMEOUT = { maxRetries: 0, timeoutMs: 1000 };

describe.each(['stallBody', 'dripBody'] as FaultKind[])('a server answering with %s', (kind) => {
	afterEach(() => sb.configure({ faults: undefined }));

	it.each([
		['an error item under "Continue"', 'continueRegularOutput' as const],
		['a thrown error', undefined],
	])(
		'custom data get: the read ends after Timeout with %s',
		async (_what, onError) => {
			prepareData(sb, CUSTOM.store, [['m1', 'grade', 'x']]);
			sb.configure({ faults: { kinds: [kind] } });
			const result = await run(
				{
					type: CUSTOM.type,
					parameters: { operation: 'get', memberId: 'm1', options: TIMEOUT },
					input: [{}],
					credentials: credentials(sb),
					onError,
				},
				`custom data get (${kind})`,
			);
			countSandbox('custom data get', sb.requests);
			expect(sb.requests).toHaveLength(1);
			if (onError) {
				expect(result.error).toBeUndefined();
				expect(result.out[0]).toHaveLength(1);
				expect(String(result.out[0][0].json.error)).toContain('the request timed out');
				expect(pairsOf(result.out[0][0])).toEqual([0]);
			} else {
				expect(String(result.error?.message)).toContain('the request timed out');
			}
		},
		ENDS_WITHIN_MS,
	);

	it(
		'send: the message the service took is Failed with deliveryUnknown, and not sent again',
		async () => {
			prepareCampaigns(sb);
			sb.configure({ faults: { kinds: [kind], phase: 'after' } });
			const result = await sendOne(sb, TIMEOUT, `send (${kind})`);
			countSandbox('send', sb.requests);
			expect(result.error).toBeUndefined();
			expect(sb.requests).toHaveLength(1);
			expect(sb.state.sent).toHaveLength(1);
			expectTimedOutSend(result.out);
		},
		ENDS_WITHIN_MS,
	);
});
