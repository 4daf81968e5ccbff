/**
 * The pure parts of a write (nodes/CampaignData/helpers/write-plan.ts): planning items into members (what is refused before sending) and
 * merging the items of one request's members.
 */
import { DateFormatter } from '../../../nodes/CampaignData/helpers/mapping';
import type { ItemSource } from '../../../nodes/CampaignData/helpers/write-items';
import {
	keySources,
	mergeBatch,
	planMembers,
} from '../../../nodes/CampaignData/helpers/write-plan';

/** Items as auto-map reads them: `memberId` plus every other field as a key. */
function sourceOf(items: Array<Record<string, unknown>>): ItemSource {
	return {
		idField: 'memberId',
		memberId: (i) => items[i].memberId,
		hasIdField: (i) => 'memberId' in items[i],
		pairs: (i, visit) => {
			for (const [key, value] of Object.entries(items[i]))
				if (key !== 'memberId') visit(key, value);
		},
	};
}

const rules = { dates: new DateFormatter('UTC'), skipNull: false };

describe('planMembers', () => {
	it('gives the members in first-seen order and refuses, once per item, what cannot be sent', () => {
		const items = [
			{ memberId: 'a', k: 1 },
			{ memberId: '', k: 2 },
			{ memberId: 'b', k: { x: 1 } },
			{ memberId: ' a ', j: 'x' },
			{ memberId: 'c' },
		];
		const plan = planMembers(sourceOf(items), items.length, rules);
		expect(plan.members).toEqual([{ memberId: 'a', sources: [0, 3], writable: true }]);
		expect(plan.refused.map((o) => ['failed' in o ? o.failed.code : undefined, o.inputs])).toEqual([
			['-9997', 1],
			['F02', 2],
			['-9997', [4]],
		]);
	});
});

describe('mergeBatch', () => {
	it('keeps key order and the later value, and the items behind each key', () => {
		const items = [
			{ memberId: 'a', k: 1, j: 'x' },
			{ memberId: 'b', x: 'b' },
			{ memberId: 'a', k: 3, bad: { no: 1 } },
		];
		const source = sourceOf(items);
		const [a, b] = mergeBatch(planMembers(source, items.length, rules).members, source, rules);
		expect([a.memberId, a.sources, a.keys, a.values]).toEqual([
			'a',
			[0, 2],
			['k', 'j'],
			{ k: 3, j: 'x' },
		]);
		expect([keySources(a, 'k'), keySources(a, 'j')]).toEqual([[0, 2], [0]]);
		expect([b.keys, b.values, keySources(b, 'x'), b.keySources]).toEqual([
			['x'],
			{ x: 'b' },
			[1],
			undefined,
		]);
	});

	it('sends a key named __proto__ as a field', () => {
		const items = [{ memberId: 'a', ['__proto__']: 'x' }];
		const parsed = JSON.parse('{"memberId":"a","__proto__":"x"}') as Record<string, unknown>;
		const source = sourceOf([parsed]);
		const [a] = mergeBatch(planMembers(source, items.length, rules).members, source, rules);
		expect(JSON.stringify(a.values)).toBe('{"__proto__":"x"}');
	});
});
