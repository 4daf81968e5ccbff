/**
 * Version 2 Create or Update at size and in the settings around the mapper: 20,000 members in
 * chunks of Batch Size, a mapping mode the node does not know, and the node as an AI-agent tool
 * (Map Automatically refused there, as in version 1).
 */
import type { IDataObject } from 'n8n-workflow';
import { expectEachInputOnce, useSandbox } from '../support';
import { columns, phoneFor, requestsTo, runMembers } from './support';

const sb = useSandbox();

const members = (count: number): IDataObject[] =>
	Array.from({ length: count }, (_, i) => ({
		memberId: `m${i}`,
		phoneNumber: phoneFor(i),
		isReceive: i % 3 === 0,
	}));

describe('version 2 Create or Update at size', () => {
	it.each(['autoMapInputData', 'defineBelow'] as const)(
		'%s: 20,000 members go out in 20 requests of 1,000 (the default Batch Size), in input order',
		async (mode) => {
			const value =
				mode === 'defineBelow'
					? {
							memberId: '={{ $json.memberId }}',
							phoneNumber: '={{ $json.phoneNumber }}',
							isReceive: '={{ $json.isReceive }}',
						}
					: null;
			const { out, error } = await runMembers(sb, {
				typeVersion: 2,
				parameters: {
					operation: 'upsert',
					apiVersion: 'v2',
					columns: await columns('v2', mode, value),
				},
				input: members(20000),
			});
			expect(error).toBeUndefined();
			const saves = requestsTo(sb, 'POST', '/v2/users/sms');
			expect(saves.map((r) => (r.body as unknown[]).length)).toEqual(Array(20).fill(1000));
			expect((saves[19].body as IDataObject[])[999]).toEqual({
				memberId: 'm19999',
				phoneNumber: phoneFor(19999),
				isReceive: 'false',
			});
			expect(out[0]).toHaveLength(20000);
			expect(out[1]).toHaveLength(0);
			expectEachInputOnce(out, 20000);
			expect(sb.state.membersV2.size).toBe(20000);
		},
	);

	it('a smaller Batch Size makes more requests', async () => {
		await runMembers(sb, {
			typeVersion: 2,
			parameters: {
				operation: 'upsert',
				apiVersion: 'v1',
				columns: await columns('v1', 'autoMapInputData', null),
				options: { batchSize: 300 },
			},
			input: members(1000),
		});
		const saves = requestsTo(sb, 'POST', '/v1/users/sms');
		expect(saves.map((r) => (r.body as unknown[]).length)).toEqual([300, 300, 300, 100]);
	});
});

describe('version 2 settings around the mapper', () => {
	it('a mapping mode the node does not know stops it with nothing sent', async () => {
		const { error } = await runMembers(sb, {
			typeVersion: 2,
			parameters: {
				operation: 'upsert',
				apiVersion: 'v2',
				columns: { ...(await columns('v2', 'defineBelow', null)), mappingMode: 'guess' },
			},
			input: members(1),
		});
		expect(error?.message).toMatch(/Mapping Column Mode must be .* \(got "guess"\)/);
		expect(sb.requests).toHaveLength(0);
	});

	it("as an AI-agent tool, the mapper's Map Automatically is refused on output 0; Define Below runs", async () => {
		const refused = await runMembers(sb, {
			asTool: true,
			typeVersion: 2,
			parameters: {
				operation: 'upsert',
				apiVersion: 'v2',
				columns: await columns('v2', 'autoMapInputData', null),
			},
			input: members(1),
		});
		expect(refused.error).toBeUndefined();
		expect(refused.out[0].map((i) => i.json)).toEqual([
			expect.objectContaining({
				outcome: 'error',
				message: 'Mapping Mode "Map Automatically" is not available to an AI agent',
			}),
		]);
		expect(sb.requests).toHaveLength(0);

		const defined = await runMembers(sb, {
			asTool: true,
			typeVersion: 2,
			parameters: {
				operation: 'upsert',
				apiVersion: 'v2',
				columns: await columns('v2', 'defineBelow', {
					memberId: 'agent-1',
					phoneNumber: '010-1234-5678',
					isReceive: true,
				}),
			},
			input: [{}],
		});
		expect(defined.out[0].map((i) => i.json)).toEqual([
			expect.objectContaining({ memberId: 'agent-1', phoneNumber: '010-1234-5678' }),
		]);
		expect(requestsTo(sb, 'POST', '/v2/users/sms').map((r) => r.body)).toEqual([
			[{ memberId: 'agent-1', phoneNumber: '010-1234-5678', isReceive: 'true' }],
		]);
	});
});

describe('version 2 before any field is mapped', () => {
	it.each([
		['the node as added (no Member Fields parameter)', undefined],
		['Define Below with no value', { mappingMode: 'defineBelow', value: null }],
		['Define Below with the text fields left empty', 'empty'],
	] as const)(
		'%s: one clear error naming where to map the fields, nothing sent',
		async (_, given) => {
			const columnsParameter =
				given === 'empty'
					? await columns('v2', 'defineBelow', {
							memberId: '',
							phoneNumber: '',
							name: '',
						})
					: given;
			const { out, error } = await runMembers(sb, {
				typeVersion: 2,
				parameters: {
					operation: 'upsert',
					apiVersion: 'v2',
					...(columnsParameter === undefined ? {} : { columns: columnsParameter }),
				},
				input: members(3),
			});
			expect(error?.message).toBe(
				'No member field is mapped: set at least Member ID and Phone Number under Member Fields (Define Below), or choose Map Automatically',
			);
			expect(out).toEqual([]);
			expect(sb.requests).toHaveLength(0);
		},
	);

	it('a field mapped by an expression that is empty for one item is that item on Failed, as before', async () => {
		const { out, error } = await runMembers(sb, {
			typeVersion: 2,
			parameters: {
				operation: 'upsert',
				apiVersion: 'v2',
				columns: await columns('v2', 'defineBelow', {
					memberId: '={{ $json.memberId }}',
					phoneNumber: '={{ $json.phoneNumber }}',
				}),
			},
			input: [...members(1), { memberId: '', phoneNumber: '' }],
		});
		expect(error).toBeUndefined();
		expect(out[0]).toHaveLength(1);
		expect(out[1].map((i) => i.json.code)).toEqual(['F00']);
	});
});
