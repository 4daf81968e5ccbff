/**
 * A refused row found by halving (nodes/CampaignMembers/helpers/halving.ts), on its own: valid rows
 * stored, refused rows failed alone, and the bound on the requests spent doing it.
 */
import fc from 'fast-check';
import {
	MAX_HALVING_REQUESTS,
	sendHalving,
	type SendOutcome,
} from '../../../nodes/CampaignMembers/helpers/halving';

describe('sendHalving', () => {
	/** A service that refuses a whole request when it holds any bad row. */
	const service = (bad: Set<number>) => {
		const requests: number[][] = [];
		const send = async (rows: number[]): Promise<SendOutcome<number>> => {
			requests.push(rows);
			return rows.some((r) => bad.has(r))
				? { kind: 'rowRefused', failure: { code: '-1007', message: 'refused' } }
				: { kind: 'applied', failures: new Map() };
		};
		return { send, requests };
	};

	it('stores every valid row, fails only the bad ones, within 2*ceil(log2 n) extra requests per bad row', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.integer({ min: 1, max: 1000 }).chain((n) =>
					fc.record({
						n: fc.constant(n),
						bad: fc.uniqueArray(fc.integer({ min: 0, max: n - 1 }), {
							minLength: 0,
							maxLength: 5,
						}),
					}),
				),
				async ({ n, bad }) => {
					const rows = Array.from({ length: n }, (_, i) => i);
					const { send } = service(new Set(bad));
					const report = await sendHalving(rows, send);
					expect(report.failed.map((f) => f.row).sort((a, b) => a - b)).toEqual(
						[...bad].sort((a, b) => a - b),
					);
					expect(report.succeeded).toHaveLength(n - bad.length);
					expect(report.requests - 1).toBeLessThanOrEqual(2 * bad.length * Math.ceil(Math.log2(n)));
				},
			),
			{ numRuns: 200 },
		);
	});

	it('1,000 rows with one bad row cost exactly 20 extra requests, and the valid rows are sent in order', async () => {
		const { send, requests } = service(new Set([537]));
		const report = await sendHalving(
			Array.from({ length: 1000 }, (_, i) => i),
			send,
		);
		expect(report.requests).toBe(21);
		expect(requests).toHaveLength(21);
		const stored = requests.filter((r) => !r.includes(537)).flat();
		expect(stored).toEqual(Array.from({ length: 1000 }, (_, i) => i).filter((i) => i !== 537));
	});

	it('stops splitting when the service refuses everything, failing the rest together and saying so', async () => {
		const rows = Array.from({ length: 1000 }, (_, i) => i);
		const { send, requests } = service(new Set(rows));
		const report = await sendHalving(rows, send);
		expect(requests.length - 1).toBeLessThanOrEqual(MAX_HALVING_REQUESTS);
		expect(report.failed).toHaveLength(1000);
		expect(report.failed.some((f) => /stopped splitting/.test(f.failure.message))).toBe(true);
	});

	it('fails every row without splitting when the refusal is not about a row', async () => {
		let calls = 0;
		const report = await sendHalving([1, 2, 3], async () => {
			calls++;
			return { kind: 'allFailed', failure: { code: '-1009', message: 'later' } };
		});
		expect(calls).toBe(1);
		expect(report.failed.map((f) => f.row)).toEqual([1, 2, 3]);
	});

	it('keeps what earlier halves stored when a later request fails as a whole, and sends nothing after it', async () => {
		const requests: number[][] = [];
		const down = new Error('HTTP 500');
		const send = async (rows: number[]): Promise<SendOutcome<number>> => {
			requests.push(rows);
			if (requests.length <= 2)
				return { kind: 'rowRefused', failure: { code: '-1007', message: 'refused' } };
			if (requests.length === 4) throw down;
			return { kind: 'applied', failures: new Map() };
		};
		const report = await sendHalving([0, 1, 2, 3, 4, 5, 6, 7], send);
		// [0..7] and [0..3] refused, [0, 1] stored, [2, 3] fails as a whole: [4..7] is never sent.
		expect(requests).toEqual([
			[0, 1, 2, 3, 4, 5, 6, 7],
			[0, 1, 2, 3],
			[0, 1],
			[2, 3],
		]);
		expect(report.succeeded).toEqual([0, 1]);
		expect(report.failed).toEqual([]);
		expect(report.stopped).toEqual({ error: down, rows: [2, 3, 4, 5, 6, 7] });
	});
});
