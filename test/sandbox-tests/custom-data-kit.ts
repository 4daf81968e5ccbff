/**
 * What the custom data conformance suites share: the entry shapes, the file's sandbox with three
 * registered keys, seeding, and a reader that follows nextPageSeq to the end.
 */
import type { Sandbox } from '../../sandbox/types';
import { get, useTestSandbox } from './testkit';

export interface Entry {
	memberId: string;
	customDataKey: string;
	customDataValue: string | number;
}
export interface Page {
	nextPageSeq?: number | string | null;
	dataList: Entry[];
}
export interface FailRow {
	memberId: string;
	failKey: string;
	failValue: unknown;
	failCode: string;
}

/** The file's sandbox, with the keys name (string), points (number) and birthday (date) registered before each test. */
export function useCustomDataSandbox(): Sandbox {
	const sb = useTestSandbox();
	beforeEach(() => {
		sb.registerKey('name', 'string');
		sb.registerKey('points', 'number');
		sb.registerKey('birthday', 'date');
	});
	return sb;
}

/** `members` members with keys k0..k4 each, straight into the state. */
export function seed(sb: Sandbox, members: number): Entry[] {
	const expected: Entry[] = [];
	for (let m = 0; m < members; m++) {
		const memberId = `m${m}`;
		const entries = new Map<string, string | number>();
		for (let k = 0; k < 5; k++) {
			entries.set(`k${k}`, m * 10 + k);
			expected.push({ memberId, customDataKey: `k${k}`, customDataValue: m * 10 + k });
		}
		sb.state.custom.set(memberId, entries);
	}
	return expected;
}

/** Follows nextPageSeq until the end (at most 20 pages). */
export async function readAll(
	sb: Sandbox,
	path = '/v2/custom',
): Promise<{ pages: Page[]; entries: Entry[] }> {
	const pages: Page[] = [];
	let next: Page['nextPageSeq'] = undefined;
	for (let i = 0; i < 20; i++) {
		const sep = path.includes('?') ? '&' : '?';
		const res = await get(
			sb,
			next === undefined ? path : `${path}${sep}seq=${encodeURIComponent(String(next))}`,
		);
		expect(Number(res.code)).toBe(0);
		const page = res.value<Page>();
		pages.push(page);
		if (page.nextPageSeq === null || page.nextPageSeq === undefined || page.nextPageSeq === '')
			break;
		next = page.nextPageSeq;
	}
	return { pages, entries: pages.flatMap((p) => p.dataList) };
}
