/**
 * Create or Update in node version 2: the rows come from n8n's resource mapper (Map Each Column
 * Manually, or Map Automatically from the input's fields), with n8n's type check, and go out as
 * in version 1: the same rows, the same chunks, the same Failed items and codes.
 */
import type { IDataObject } from 'n8n-workflow';
import { expectEachInputOnce, pairsOf, useSandbox } from '../support';
import { columns, json, phoneFor, requestsTo, runMembers } from './support';

const sb = useSandbox();
const V2 = 2;

const EXPRESSIONS = {
	memberId: '={{ $json.id }}',
	phoneNumber: '={{ $json.phone }}',
	isReceive: '={{ $json.consent }}',
	name: '={{ $json.fullName }}',
};

/** Items as a source system gives them (field names of its own). */
const people = (count: number): IDataObject[] =>
	Array.from({ length: count }, (_, i) => ({
		id: `m${i}`,
		phone: phoneFor(i).replace(/-/g, ''),
		consent: i % 2 === 0,
		fullName: `Member ${i}`,
	}));

/** The same items with the member field names, for Map Automatically and for version 1. */
const asMembers = (items: IDataObject[]): IDataObject[] =>
	items.map((p) => ({
		memberId: p.id,
		phoneNumber: p.phone,
		isReceive: p.consent,
		name: p.fullName,
	}));

const pathOf = (apiVersion: 'v1' | 'v2') => `/${apiVersion}/users/sms`;

describe.each(['v1', 'v2'] as const)('version 2 Create or Update, member API %s', (apiVersion) => {
	const bodies = () => requestsTo(sb, 'POST', pathOf(apiVersion)).map((r) => r.body);

	/** What a version 1 node sends for the same members (the reference). */
	async function version1Bodies(input: IDataObject[]): Promise<unknown[]> {
		await runMembers(sb, { parameters: { operation: 'upsert', apiVersion }, input });
		const sent = bodies();
		sb.reset();
		return sent;
	}

	it('Map Each Column Manually: the expressions give the rows version 1 sends', async () => {
		const input = people(5);
		const expected = await version1Bodies(asMembers(input));
		const { out, error } = await runMembers(sb, {
			typeVersion: V2,
			parameters: {
				operation: 'upsert',
				apiVersion,
				columns: await columns(apiVersion, 'defineBelow', EXPRESSIONS),
			},
			input,
		});
		expect(error).toBeUndefined();
		expect(bodies()).toEqual(expected);
		expect((bodies()[0] as IDataObject[])[0]).toEqual({
			memberId: 'm0',
			phoneNumber: phoneFor(0),
			isReceive: apiVersion === 'v1' ? true : 'true',
			name: 'Member 0',
		});
		expect(json(out[0])[1]).toEqual({
			memberId: 'm1',
			phoneNumber: phoneFor(1),
			isReceive: false,
			name: 'Member 1',
			apiVersion,
		});
		expectEachInputOnce(out, 5);
	});

	it('Map Automatically reads the member fields of each input item, as version 1 does', async () => {
		const input = asMembers(people(4));
		input[2].isReceive = 'N';
		input[3].phoneNumber = 'not-a-phone';
		const expected = await version1Bodies(input);
		const { out } = await runMembers(sb, {
			typeVersion: V2,
			parameters: {
				operation: 'upsert',
				apiVersion,
				columns: await columns(apiVersion, 'autoMapInputData', null),
			},
			input,
		});
		expect(bodies()).toEqual(expected);
		expect(out[1]).toHaveLength(1);
		expect(out[1][0].json).toMatchObject({
			code: apiVersion === 'v1' ? '-1007' : 'F02',
			memberId: 'm3',
			phoneNumber: 'not-a-phone',
			apiVersion,
		});
		expect(pairsOf(out[1][0])).toEqual([3]);
		expectEachInputOnce(out, 4);
	});

	it('a value of the wrong type is a Failed item with its field code, until Attempt To Convert Types is on', async () => {
		const input = [
			{ id: 'a', phone: phoneFor(1), consent: 'true' },
			{ id: 7, phone: phoneFor(2), consent: true },
			{ id: 'c', phone: phoneFor(3), consent: 'maybe' },
			{ id: 'd', phone: phoneFor(4), consent: 1 },
		];
		const run = async (convert: boolean) => {
			sb.reset();
			return await runMembers(sb, {
				typeVersion: V2,
				parameters: {
					operation: 'upsert',
					apiVersion,
					columns: await columns(apiVersion, 'defineBelow', EXPRESSIONS, convert),
				},
				input,
			});
		};
		const codes =
			apiVersion === 'v1'
				? { memberId: '-1006', consent: '-1012' }
				: { memberId: 'F01', consent: '-9997' };

		const strict = await run(false);
		expect(bodies()).toEqual([]);
		const failed = new Map(strict.out[1].map((item) => [pairsOf(item)[0], item.json]));
		expect([...failed.keys()]).toEqual([0, 1, 2, 3]);
		expect(failed.get(0)).toMatchObject({ code: codes.consent, memberId: 'a', apiVersion });
		expect(String(failed.get(0)?.message)).toMatch(/^Receives SMS: 'isReceive' expects a boolean/);
		expect(String(failed.get(0)?.message)).toContain('Attempt To Convert Types');
		expect(failed.get(1)).toMatchObject({ code: codes.memberId, phoneNumber: phoneFor(2) });
		expect(String(failed.get(1)?.message)).toMatch(/^Member ID: 'memberId' expects a string/);
		// "maybe" is no boolean whatever the option: no advice to turn it on.
		expect(String(failed.get(2)?.message)).not.toContain('Attempt To Convert Types');
		expect(failed.get(3)).toMatchObject({ code: codes.consent, memberId: 'd' });
		expect(strict.out[0]).toHaveLength(0);

		const converted = await run(true);
		const yes = apiVersion === 'v1' ? true : 'true';
		expect(bodies()).toEqual([
			[
				{ memberId: 'a', phoneNumber: phoneFor(1), isReceive: yes },
				{ memberId: '7', phoneNumber: phoneFor(2), isReceive: yes },
				{ memberId: 'd', phoneNumber: phoneFor(4), isReceive: yes },
			],
		]);
		expect(converted.out[1].map((item) => pairsOf(item)[0])).toEqual([2]);
		expect(converted.out[1][0].json).toMatchObject({ code: codes.consent, memberId: 'c' });
		expectEachInputOnce(converted.out, 4);
	});

	it('a required field left out of the mapper is a Failed item naming the field', async () => {
		const without = (field: keyof typeof EXPRESSIONS): IDataObject =>
			Object.fromEntries(Object.entries(EXPRESSIONS).filter(([id]) => id !== field));
		const withoutId = without('memberId');
		const withoutPhone = without('phoneNumber');
		const input = people(2);
		const noId = await runMembers(sb, {
			typeVersion: V2,
			parameters: {
				operation: 'upsert',
				apiVersion,
				columns: await columns(apiVersion, 'defineBelow', withoutId),
			},
			input,
		});
		expect(json(noId.out[1])).toEqual([
			expect.objectContaining({ code: apiVersion === 'v1' ? '-1006' : 'F01', memberId: null }),
			expect.objectContaining({ code: apiVersion === 'v1' ? '-1006' : 'F01', memberId: null }),
		]);
		expect(String(noId.out[1][0].json.message)).toContain('no member ID given');
		const noPhone = await runMembers(sb, {
			typeVersion: V2,
			parameters: {
				operation: 'upsert',
				apiVersion,
				columns: await columns(apiVersion, 'defineBelow', withoutPhone),
			},
			input,
		});
		expect(noPhone.out[1][1].json).toMatchObject({
			code: apiVersion === 'v1' ? '-1007' : 'F02',
			memberId: 'm1',
			phoneNumber: null,
		});
		expect(String(noPhone.out[1][1].json.message)).toContain('no phone number given');
		expect(bodies()).toEqual([]);
	});
});
