/**
 * Plan: input items -> the members to write, in the order they first appear, and the items
 * refused before sending (each a failed outcome); then, per request, the merged rows of a
 * batch of members. Pure: nothing is sent, nothing outside is changed.
 */
import type { IDataObject } from 'n8n-workflow';
import type { DateFormatter, WireValue } from './mapping';
import { isAlwaysWritable, toWireValue, wireValue } from './mapping';
import { NODE_RULE_CODES } from './advice';
import type { Outcome } from '../../shared/outcome';
import { failed } from '../../shared/outcome';
import { jsonSafe, readMemberId, setField } from '../../shared/values';
import type { ItemSource } from './write-items';

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
	/** Failed outcomes for what cannot be sent, in input order. */
	refused: Outcome[];
}

/** The Failed outcome of an item whose member id cannot be one (or that has no id field). */
function badMemberId(source: ItemSource, i: number, given: unknown, reason: string): Outcome {
	const where =
		source.idField === 'memberId' ? 'Member ID' : `Member ID (field "${source.idField}")`;
	const message = source.hasIdField(i)
		? `${where} ${reason}`
		: `The item has no field "${source.idField}": set Member ID Field to the input field that holds the member ID`;
	const failure = {
		code: NODE_RULE_CODES.badMemberId,
		message,
		memberId: jsonSafe(given),
		field: source.idField,
	};
	return failed(failure, i);
}

/** The Failed outcome of a member with nothing writable, for its items that gave no other reason. */
function nothingToWrite(memberId: string, items: number[]): Outcome {
	const message =
		'Nothing to write for this member: no key besides the member ID (check the input fields, Fields to Write and Fields to Ignore)';
	return failed({ code: NODE_RULE_CODES.nothingToWrite, message, memberId }, items);
}

/**
 * Checks every item before anything is sent, in input order: items that cannot be sent, keys
 * and values that cannot be written, each go to Failed once; a member with nothing writable
 * goes to Failed for the items that gave no other reason.
 */
export function planMembers(source: ItemSource, count: number, rules: ValueRules): WritePlan {
	const members = new Map<string, MemberPlan>();
	const refused: Outcome[] = [];
	/** Items that already failed (so an item is not reported twice for the same problem). */
	const reported = new Set<number>();
	const checker = new PairChecker(source, rules, refused);

	for (let i = 0; i < count; i++) {
		const given = source.memberId(i);
		const id = readMemberId(given);
		if (!id.ok) {
			refused.push(badMemberId(source, i, given, id.reason));
			reported.add(i);
			continue;
		}
		let plan = members.get(id.value);
		if (plan) plan.sources.push(i);
		else {
			// A one-element literal: most members have one item, and the list lives to the end.
			plan = { memberId: id.value, sources: [i], writable: false };
			members.set(id.value, plan);
		}
		const before = refused.length;
		if (checker.check(i, plan.memberId)) plan.writable = true;
		if (refused.length > before) reported.add(i);
	}

	const toSend = [...members.values()].filter((member) => member.writable);
	for (const member of members.values()) {
		const silent = member.writable ? [] : member.sources.filter((s) => !reported.has(s));
		if (silent.length > 0) refused.push(nothingToWrite(member.memberId, silent));
	}
	return { members: toSend, refused };
}

/**
 * Checks the keys and values of one item at a time: adds a failed outcome to `refused` for each
 * that cannot be written, and says whether any can. One visitor serves every item (100,000
 * items make no 100,000 callbacks).
 */
class PairChecker {
	private item = 0;
	private memberId = '';
	private writable = false;

	constructor(
		private readonly source: ItemSource,
		private readonly rules: ValueRules,
		private readonly refused: Outcome[],
	) {}

	check(item: number, memberId: string): boolean {
		this.item = item;
		this.memberId = memberId;
		this.writable = false;
		this.source.pairs(item, this.visit);
		return this.writable;
	}

	private readonly visit = (key: string, raw: unknown): void => {
		const { item, memberId } = this;
		if (key.trim() === '') {
			this.refused.push(
				failed(
					{
						code: NODE_RULE_CODES.badKey,
						message: 'A key name is empty',
						memberId,
						key,
						value: jsonSafe(raw),
					},
					item,
				),
			);
			return;
		}
		if (this.rules.skipNull && (raw === null || raw === undefined)) return;
		// A value that cannot be sent is reported for its item and does not replace an earlier
		// valid value of the same key ("later wins" applies among values that can be written).
		const value = isAlwaysWritable(raw) ? undefined : toWireValue(raw, this.rules.dates);
		if (value && !value.ok) {
			this.refused.push(
				failed(
					{
						code: NODE_RULE_CODES.badValue,
						message: `The value of key "${key}" ${value.reason}`,
						memberId,
						key,
						value: jsonSafe(raw),
					},
					item,
				),
			);
			return;
		}
		this.writable = true;
	};
}

/**
 * What a key of an item is sent as, or undefined when it is not sent: an empty key name, a
 * skipped empty value, or a value that cannot be written (each reported by `planMembers`).
 */
function sendable(key: string, raw: unknown, rules: ValueRules): WireValue | undefined {
	if (key.trim() === '' || (rules.skipNull && (raw === null || raw === undefined)))
		return undefined;
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
export const keySources = (member: MergedMember, key: string): number[] =>
	member.keySources?.get(key) ?? member.sources;

/**
 * The members of one request, built when it is sent: the rows of 100,000 members are never all
 * in memory next to the items they come from. Each member's items are merged once, in input
 * order: a key keeps the place it was first seen and the later value wins, among values that
 * can be written.
 */
export function mergeBatch(
	batch: readonly MemberPlan[],
	source: ItemSource,
	rules: ValueRules,
): MergedMember[] {
	const merger = new BatchMerger(source, rules);
	return batch.map((plan) => merger.merge(plan));
}

/** Merges the items of one member at a time, with one visitor for every item. */
class BatchMerger {
	private member: MergedMember = { memberId: '', sources: [], keys: [], values: {} };
	private item = 0;

	constructor(
		private readonly source: ItemSource,
		private readonly rules: ValueRules,
	) {}

	merge(plan: MemberPlan): MergedMember {
		const member: MergedMember = {
			memberId: plan.memberId,
			sources: plan.sources,
			keys: [],
			values: {},
		};
		if (plan.sources.length > 1) member.keySources = new Map();
		this.member = member;
		for (const item of plan.sources) {
			this.item = item;
			this.source.pairs(item, this.add);
		}
		// An exact-size copy: the list stays in the Success item, a pushed-to list keeps spare room.
		member.keys = member.keys.slice();
		return member;
	}

	private readonly add = (key: string, raw: unknown): void => {
		const value = sendable(key, raw, this.rules);
		if (value === undefined) return;
		const { member, item } = this;
		if (!Object.prototype.hasOwnProperty.call(member.values, key)) member.keys.push(key);
		setField(member.values, key, value);
		if (member.keySources === undefined) return;
		const from = member.keySources.get(key);
		if (from === undefined) member.keySources.set(key, [item]);
		else if (from[from.length - 1] !== item) from.push(item);
	};
}
