/**
 * Plan: input items -> the members to write, in the order they first appear, and the items
 * refused before sending (each with its Failed item); then, per request, the merged rows of a
 * batch of members. Pure: nothing is sent, nothing outside is changed.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import type { DateFormatter, WireValue } from '../helpers/mapping';
import { isAlwaysWritable, toWireValue, wireValue } from '../helpers/mapping';
import { NODE_RULE_CODES } from '../helpers/dialect';
import { failedItem } from '../../shared/outputs';
import { jsonSafe, readMemberId, setField } from '../../shared/values';
import type { ItemSource } from './items';

/** How values are read: the workflow time zone for dates, and whether empty values are left out. */
export interface ValueRules {
	dates: DateFormatter;
	skipNull: boolean;
}

/** A member to write: its id and the items that name it, in input order. */
export interface MemberPlan {
	memberId: string;
	sources: number[];
	/** At least one of its values can be written. */
	writable: boolean;
}

export interface WritePlan {
	/** Members with at least one value to write, in first-seen order. */
	members: MemberPlan[];
	/** Failed items for what cannot be sent, in input order. */
	refused: INodeExecutionData[];
}

/**
 * Checks every item before anything is sent, in input order: items that cannot be sent, keys
 * and values that cannot be written, each go to Failed once; a member with nothing writable
 * goes to Failed for the items that gave no other reason.
 */
export function planMembers(source: ItemSource, count: number, rules: ValueRules): WritePlan {
	const members = new Map<string, MemberPlan>();
	const refused: INodeExecutionData[] = [];
	/** Items that already have a Failed item (so an item is not reported twice for the same problem). */
	const reported = new Set<number>();

	for (let i = 0; i < count; i++) {
		const given = source.memberId(i);
		const id = readMemberId(given);
		if (!id.ok) {
			const where = source.idField === 'memberId' ? 'Member ID' : `Member ID (field "${source.idField}")`;
			const message = source.hasIdField(i)
				? `${where} ${id.reason}`
				: `The item has no field "${source.idField}": set Member ID Field to the input field that holds the member ID`;
			refused.push(failedItem({ code: NODE_RULE_CODES.badMemberId, message, memberId: jsonSafe(given), field: source.idField }, i));
			reported.add(i);
			continue;
		}
		let plan = members.get(id.value);
		if (!plan) {
			plan = { memberId: id.value, sources: [], writable: false };
			members.set(id.value, plan);
		}
		plan.sources.push(i);
		const before = refused.length;
		if (checkPairs(source, i, plan.memberId, rules, refused)) plan.writable = true;
		if (refused.length > before) reported.add(i);
	}

	const toSend: MemberPlan[] = [];
	for (const member of members.values()) {
		if (member.writable) {
			toSend.push(member);
			continue;
		}
		const silent = member.sources.filter((s) => !reported.has(s));
		if (silent.length > 0) {
			refused.push(
				failedItem(
					{
						code: NODE_RULE_CODES.nothingToWrite,
						message: 'Nothing to write for this member: no key besides the member ID (check the input fields, Fields to Write and Fields to Ignore)',
						memberId: member.memberId,
					},
					silent,
				),
			);
		}
	}
	return { members: toSend, refused };
}

/**
 * Checks the keys and values of item `i`: adds a Failed item to `refused` for each that cannot be
 * written, and says whether any can.
 */
function checkPairs(source: ItemSource, i: number, memberId: string, rules: ValueRules, refused: INodeExecutionData[]): boolean {
	let writable = false;
	source.pairs(i, (key, raw) => {
		if (key.trim() === '') {
			refused.push(failedItem({ code: NODE_RULE_CODES.badKey, message: 'A key name is empty', memberId, key, value: jsonSafe(raw) }, i));
			return;
		}
		if (rules.skipNull && (raw === null || raw === undefined)) return;
		// A value that cannot be sent is reported for its item and does not replace an earlier
		// valid value of the same key ("later wins" applies among values that can be written).
		const value = isAlwaysWritable(raw) ? undefined : toWireValue(raw, rules.dates);
		if (value && !value.ok) {
			refused.push(failedItem({ code: NODE_RULE_CODES.badValue, message: `The value of key "${key}" ${value.reason}`, memberId, key, value: jsonSafe(raw) }, i));
			return;
		}
		writable = true;
	});
	return writable;
}

/**
 * What a key of an item is sent as, or undefined when it is not sent: an empty key name, a
 * skipped empty value, or a value that cannot be written (each reported by `planMembers`).
 */
function sendable(key: string, raw: unknown, rules: ValueRules): WireValue | undefined {
	if (key.trim() === '' || (rules.skipNull && (raw === null || raw === undefined))) return undefined;
	const value = wireValue(raw, rules.dates);
	return typeof value === 'object' ? undefined : value;
}

/** One member of a request: its keys and values merged from every item that named it. */
export interface MergedMember {
	memberId: string;
	/** Every input item that named the member, in input order. */
	sources: number[];
	/** Key names in first-seen order. */
	keys: string[];
	/** Key -> the value sent (the later one wins): the member's object in the request body. */
	values: IDataObject;
	/** The items behind each key, kept only for a member named by several items (else all are `sources`). */
	keySources?: Map<string, number[]>;
}

/** The items that gave one key of a member. */
export const keySources = (member: MergedMember, key: string): number[] => member.keySources?.get(key) ?? member.sources;

/**
 * The members of one request, built when it is sent: the rows of 100,000 members are never all
 * in memory next to the items they come from. Each member's items are merged once, in input
 * order: a key keeps the place it was first seen and the later value wins, among values that
 * can be written.
 */
export function mergeBatch(batch: readonly MemberPlan[], source: ItemSource, rules: ValueRules): MergedMember[] {
	return batch.map((plan) => {
		const member: MergedMember = { memberId: plan.memberId, sources: plan.sources, keys: [], values: {} };
		if (plan.sources.length > 1) member.keySources = new Map();
		for (const i of plan.sources) {
			source.pairs(i, (key, raw) => {
				const value = sendable(key, raw, rules);
				if (value === undefined) return;
				if (!Object.prototype.hasOwnProperty.call(member.values, key)) member.keys.push(key);
				setField(member.values, key, value);
				const from = member.keySources?.get(key);
				if (from === undefined) member.keySources?.set(key, [i]);
				else if (from[from.length - 1] !== i) from.push(i);
			});
		}
		// An exact-size copy: the list stays in the Success item, a pushed-to list keeps spare room.
		member.keys = member.keys.slice();
		return member;
	});
}
