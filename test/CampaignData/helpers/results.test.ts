/**
 * What a write or a delete answered (nodes/CampaignData/helpers/results.ts): the count and the
 * failure rows read in every shape, and "On Error: Continue" when a whole-call failure comes after
 * earlier requests of a write or a delete were stored: what was stored stays on Success, only the
 * items not sent carry the error.
 */
import type { IDataObject } from 'n8n-workflow';
import { readCount } from '../../../nodes/CampaignData/helpers/results';
import { readFailureRows } from '../../../nodes/shared/answers';
import { CUSTOM, DIALECTS } from '../../support';
import { envelope, startScripted, type ScriptedServer } from '../../support/scripted-server';
import { run, scriptedCredential } from '../support';

describe.each(DIALECTS)(
	'%s: "On Error: Continue" after earlier requests were stored',
	(_name, dialect) => {
		let server: ScriptedServer | undefined;
		afterEach(async () => {
			await server?.close();
			server = undefined;
		});

		/** The first request is stored, every later one fails as a whole (HTTP 500, no retries). */
		async function runBroken(parameters: IDataObject, input: IDataObject[], storedAnswer: unknown) {
			server = await startScripted((_req, index) =>
				index === 0
					? { body: envelope(0, storedAnswer) }
					: { status: 500, body: '<html>down</html>' },
			);
			return await run(
				scriptedCredential(server.baseUrl),
				dialect,
				{ ...parameters, options: { batchSize: 1, maxRetries: 0 } },
				input,
				{
					onError: 'continueRegularOutput',
				},
			);
		}

		it('a write keeps the stored row on Success; only the rows not sent carry the error', async () => {
			const { out, error } = await runBroken(
				{ operation: 'create' },
				[
					{ memberId: 'm1', grade: 'a' },
					{ memberId: 'm2', grade: 'b' },
					{ memberId: 'm3', grade: 'c' },
				],
				dialect.type === 'campaignLegacyData' ? 1 : [],
			);
			expect(error).toBeUndefined();
			expect(
				out[0].map((i) => [i.json.memberId ?? null, typeof i.json.error, i.pairedItem]),
			).toEqual([
				['m1', 'undefined', { item: 0 }],
				[null, 'string', { item: 1 }],
				[null, 'string', { item: 2 }],
			]);
			expect(out[1]).toEqual([]);
		});

		it('a delete keeps the deleted member on Success; only the members not sent carry the error', async () => {
			const { out } = await runBroken(
				{ operation: 'delete', memberId: '={{ $json.id }}' },
				[{ id: 'm1' }, { id: 'm2' }],
				1,
			);
			expect(
				out[0].map((i) => [i.json.deleted ?? null, typeof i.json.error, i.pairedItem]),
			).toEqual([
				[true, 'undefined', { item: 0 }],
				[null, 'string', { item: 1 }],
			]);
		});

		it('a failure of the first request still gives every item the error', async () => {
			server = await startScripted(() => ({ status: 500, body: '<html>down</html>' }));
			const { out } = await run(
				scriptedCredential(server.baseUrl),
				dialect,
				{ operation: 'create', options: { batchSize: 1, maxRetries: 0 } },
				[
					{ memberId: 'm1', grade: 'a' },
					{ memberId: 'm2', grade: 'b' },
				],
				{
					onError: 'continueRegularOutput',
				},
			);
			expect(out[0].map((i) => [typeof i.json.error, i.pairedItem])).toEqual([
				['string', { item: 0 }],
				['string', { item: 1 }],
			]);
		});
	},
);

describe('the execution hint after a write stopped under "On Error: Continue"', () => {
	let server: ScriptedServer | undefined;
	afterEach(async () => {
		await server?.close();
		server = undefined;
	});

	it('counts what was written and what failed; the items that carry the error are neither', async () => {
		// Request 1 stores m1's grade and refuses its points (F01); request 2 fails as a whole.
		const failList = [{ memberId: 'm1', failKey: 'points', failValue: 'x', failCode: 'F01' }];
		server = await startScripted((_req, index) =>
			index === 0
				? { body: envelope(1, { failList }) }
				: { status: 500, body: '<html>down</html>' },
		);
		const { out, nodeHints } = await run(
			scriptedCredential(server.baseUrl),
			CUSTOM,
			{ operation: 'create', options: { batchSize: 1, maxRetries: 0 } },
			[
				{ memberId: 'm1', grade: 'a', points: 'x' },
				{ memberId: 'm2', grade: 'b' },
				{ memberId: 'm3', grade: 'c' },
			],
			{ onError: 'continueRegularOutput' },
		);
		expect(out[0].map((i) => [i.json.memberId ?? null, typeof i.json.error])).toEqual([
			['m1', 'undefined'],
			[null, 'string'],
			[null, 'string'],
		]);
		expect(out[1].map((i) => i.json.code)).toEqual(['F01']);
		expect(nodeHints.map((h) => h.message.split('<br>')[0])).toEqual([
			'1 written, 1 failed (1 with code F01). See the Failed output.',
		]);
	});
});

describe('write answers', () => {
	const row = { memberId: 'a', failKey: 'k', failValue: 'v', failCode: 'F01' };
	const expected = [{ memberId: 'a', key: 'k', value: 'v', code: 'F01', message: undefined }];

	it('reads failure rows bare or wrapped', () => {
		expect(readFailureRows([row])).toEqual(expected);
		expect(readFailureRows({ failList: [row] })).toEqual(expected);
		expect(readFailureRows({ whatever: [row] })).toEqual(expected);
		expect(readFailureRows({ memberId: 'a', failureCode: 'F02', key: 'k' })).toBeUndefined();
		expect(readFailureRows(null)).toBeUndefined();
		expect(readFailureRows(3)).toBeUndefined();
	});

	it('reads counts as numbers, numeric text or a count field', () => {
		expect(readCount(3)).toBe(3);
		expect(readCount('3')).toBe(3);
		expect(readCount({ count: 4 })).toBe(4);
		expect(readCount(null)).toBeUndefined();
		expect(readCount(-1)).toBeUndefined();
		expect(readCount([])).toBeUndefined();
	});
});
