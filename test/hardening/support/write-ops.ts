/**
 * Every write operation of every node as one uniform description (how to generate a case, set
 * the sandbox up, run the node, read the state), so that the fault suites run all of them the
 * same way.
 */
import fc from 'fast-check';
import type { IDataObject } from 'n8n-workflow';
import type { Sandbox } from '../../../sandbox/server';
import { COMMON_IDS, batchSize, dataItem, initialEntries, memberIdValue } from '../arbitraries';
import { MEMBER_IDS, PHONES, initialMembers, memberItem } from '../arbitraries-members';
import { DIALECTS } from '../../support';
import { prepareData, prepareMembers } from './fixtures';
import { plainMap, plainStore } from './scan';

export interface WriteCase {
	parameters: IDataObject;
	input: IDataObject[];
	setup: (s: Sandbox) => void;
}

export interface WriteOp {
	name: string;
	type: string;
	cases: fc.Arbitrary<WriteCase>;
	state: (s: Sandbox) => unknown;
	failedFields: string[];
	eachIndexOnce: boolean;
}

const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const dataOps: WriteOp[] = DIALECTS.flatMap(([name, d]) => [
	{
		name: `${name} create/update`,
		type: d.type,
		failedFields: ['memberId'],
		eachIndexOnce: false,
		state: (s: Sandbox) => plainStore(d.store(s)),
		cases: fc
			.record({
				items: fc.array(dataItem, { minLength: 1, maxLength: 20 }),
				size: batchSize,
				operation: fc.constantFrom('create', 'update'),
				initial: initialEntries,
			})
			.map((c) => ({
				parameters: { operation: c.operation, options: { batchSize: c.size } },
				input: json(c.items) as IDataObject[],
				setup: (s: Sandbox) => void prepareData(s, d.store, c.initial),
			})),
	},
	{
		name: `${name} delete/deleteKeys`,
		type: d.type,
		failedFields: ['memberId'],
		eachIndexOnce: true,
		state: (s: Sandbox) => plainStore(d.store(s)),
		cases: fc
			.record({
				items: fc.array(
					fc.record({
						id: memberIdValue,
						keys: fc.constantFrom(
							'grade',
							'grade, points',
							' joined ,등급',
							'',
							'unregistered,points',
						),
					}),
					{ minLength: 1, maxLength: 20 },
				),
				size: batchSize,
				operation: fc.constantFrom('delete', 'deleteKeys'),
				initial: initialEntries,
				lock: fc.option(fc.constantFrom(...COMMON_IDS), { freq: 4, nil: undefined }),
			})
			.map((c) => ({
				parameters: {
					operation: c.operation,
					memberId: '={{ $json.id }}',
					keys: '={{ $json.keys }}',
					options: { batchSize: c.size },
				},
				input: json(c.items) as IDataObject[],
				setup: (s: Sandbox) => {
					prepareData(s, d.store, c.initial);
					if (c.lock !== undefined) s.state.lockedMembers.set(c.lock, -1009);
				},
			})),
	},
]);

/** The parameters of a Members delete that takes the member id and the phone number from the item. */
export const membersDelete = (
	version: string,
	batchSize: number,
	normalizePhoneNumbers: boolean,
	deleteAllInformation: boolean,
): IDataObject => ({
	apiVersion: version,
	operation: 'delete',
	memberId: '={{ $json.memberId }}',
	phoneNumber: '={{ $json.phoneNumber }}',
	options: { batchSize, normalizePhoneNumbers, deleteAllInformation },
});

const memberOps: WriteOp[] = (['v1', 'v2'] as const).flatMap((version) => [
	{
		name: `members ${version} upsert`,
		type: 'campaignMembers',
		failedFields: ['memberId', 'phoneNumber'],
		eachIndexOnce: true,
		state: (s: Sandbox) =>
			version === 'v1' ? plainMap(s.state.membersV1) : plainMap(s.state.membersV2),
		cases: fc
			.record({
				items: fc.array(memberItem, { minLength: 1, maxLength: 20 }),
				size: batchSize,
				normalize: fc.boolean(),
				initial: initialMembers,
				hidden: fc.option(fc.constantFrom('m1', 'm2', '김'), { freq: 3, nil: undefined }),
			})
			.map((c) => ({
				parameters: {
					apiVersion: version,
					operation: 'upsert',
					options: { batchSize: c.size, normalizePhoneNumbers: c.normalize },
				},
				input: json(c.items.map((i) => i.json)) as IDataObject[],
				setup: (s: Sandbox) => {
					prepareMembers(s, c.initial);
					if (version === 'v1' && c.hidden !== undefined)
						s.state.v1RejectMemberIds.set(c.hidden, -1007);
				},
			})),
	},
	{
		name: `members ${version} delete`,
		type: 'campaignMembers',
		failedFields: [version === 'v1' ? 'memberId' : 'phoneNumber'],
		eachIndexOnce: true,
		state: (s: Sandbox) =>
			version === 'v1' ? plainMap(s.state.membersV1) : plainMap(s.state.membersV2),
		cases: fc
			.record({
				items: fc.array(
					fc.record({
						memberId: fc.constantFrom(...MEMBER_IDS),
						phone: fc.nat({ max: PHONES.length - 1 }),
					}),
					{ minLength: 1, maxLength: 20 },
				),
				size: batchSize,
				normalize: fc.boolean(),
				allInformation: fc.boolean(),
				initial: initialMembers,
			})
			.map((c) => ({
				parameters: membersDelete(version, c.size, c.normalize, c.allInformation),
				input: json(
					c.items.map((i) => ({ memberId: i.memberId, phoneNumber: PHONES[i.phone].given })),
				) as IDataObject[],
				setup: (s: Sandbox) => void prepareMembers(s, c.initial),
			})),
	},
]);

export const WRITE_OPS: WriteOp[] = [...dataOps, ...memberOps];
