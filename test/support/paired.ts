/**
 * pairedItem and conservation checks: which input items an output item is paired to, and that
 * every input item is accounted for (once, or at least once) across a node's outputs.
 */
import type { INodeExecutionData } from 'n8n-workflow';

/** The input indexes an output item is paired to ([] when it has none). */
export function pairsOf(item: INodeExecutionData): number[] {
	const p = item.pairedItem;
	if (p === undefined || p === null) return [];
	if (typeof p === 'number') return [p];
	return (Array.isArray(p) ? p : [p]).map((x) => (typeof x === 'number' ? x : x.item));
}

/** Each item's one input index, in output order (an item paired to several gives its first). */
export const pairedIndexes = (items: INodeExecutionData[]): number[] =>
	items.map((item) => pairsOf(item)[0]);

/** How many output items are paired to each input index. */
export function pairCounts(out: INodeExecutionData[][]): Map<number, number> {
	const counts = new Map<number, number>();
	for (const output of out)
		for (const item of output)
			for (const i of pairsOf(item)) counts.set(i, (counts.get(i) ?? 0) + 1);
	return counts;
}

/** Every input index some output item is paired to. */
export const covered = (out: INodeExecutionData[][]): Set<number> =>
	new Set(pairCounts(out).keys());

const indexes = (count: number) => Array.from({ length: count }, (_, i) => i);

/** Every output item is paired, and every input item is on some output. */
export function expectAllAccounted(out: INodeExecutionData[][], inputCount: number): void {
	for (const output of out)
		for (const item of output) expect(pairsOf(item).length).toBeGreaterThan(0);
	const seen = covered(out);
	expect(indexes(inputCount).filter((i) => !seen.has(i))).toEqual([]);
}

/** Every output item is paired to exactly one input, and every input appears exactly once. */
export function expectEachInputOnce(out: INodeExecutionData[][], inputCount: number): void {
	for (const output of out) for (const item of output) expect(pairsOf(item)).toHaveLength(1);
	const counts = pairCounts(out);
	expect(counts.size).toBe(inputCount);
	for (const i of indexes(inputCount)) expect(counts.get(i)).toBe(1);
}
