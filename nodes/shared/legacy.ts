/** TRANSITIONAL (removed once every operation returns outcomes): old outputs read back as outcomes. */
import type { INodeExecutionData } from 'n8n-workflow';
import type { Failure, Outcome } from './outcome';

function inputsOf(item: INodeExecutionData): number | number[] {
	const p = item.pairedItem;
	if (typeof p === 'number') return p;
	if (Array.isArray(p)) return p.map((x) => (typeof x === 'number' ? x : x.item));
	return p ? p.item : 0;
}

export function fromOutputs(outputs: INodeExecutionData[][]): Outcome[] {
	const [first = [], failed = []] = outputs;
	return [
		...first.map((item) => ({ done: item.json, inputs: inputsOf(item) })),
		...failed.map((item) => ({ failed: item.json as Failure, inputs: inputsOf(item) })),
	];
}
