/**
 * The two data nodes as test cases: Campaign Custom Data (v2) and Campaign Legacy Data (v1) do
 * the same jobs on two paths with two field spellings. Suites run their cases for both with
 * `describe.each(DIALECTS)`.
 */
import type { Sandbox } from '../../sandbox/types';

export interface DialectCase {
	type: 'campaignCustomData' | 'campaignLegacyData';
	dialect: 'v2' | 'legacy';
	path: '/v2/custom' | '/v1/legacy';
	keyField: string;
	valueField: string;
	/** The sandbox's entries of this dialect: member id -> key -> stored value. */
	store(sb: Sandbox): Map<string, Map<string, string | number>>;
}

export const CUSTOM: DialectCase = {
	type: 'campaignCustomData',
	dialect: 'v2',
	path: '/v2/custom',
	keyField: 'customDataKey',
	valueField: 'customDataValue',
	store: (sb) => sb.state.custom,
};

export const LEGACY: DialectCase = {
	type: 'campaignLegacyData',
	dialect: 'legacy',
	path: '/v1/legacy',
	keyField: 'legacyDataKey',
	valueField: 'legacyDataValue',
	store: (sb) => sb.state.legacy,
};

export const DIALECTS: Array<[string, DialectCase]> = [
	['custom data v2', CUSTOM],
	['legacy data v1', LEGACY],
];
