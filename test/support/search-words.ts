/**
 * The words people search for in n8n's node panel and the package nodes each must find (README.md,
 * "Finding the nodes"): checked against the codex files in test/package/codex.test.ts and in the
 * real editor in test/e2e/editor.e2e.ts.
 */
export const SEARCH_WORDS: Readonly<Record<string, readonly string[]>> = {
	Kakao: ['campaignAlimtalk'],
	KakaoTalk: ['campaignAlimtalk'],
	카카오: ['campaignAlimtalk'],
	카카오톡: ['campaignAlimtalk'],
	알림톡: ['campaignAlimtalk'],
	Alimtalk: ['campaignAlimtalk'],
	notification: ['campaignAlimtalk'],
	SMS: ['campaignMembers'],
	member: ['campaignMembers'],
	CRM: ['campaignCustomData', 'campaignLegacyData', 'campaignMembers'],
	'custom data': ['campaignCustomData', 'campaignLegacyData'],
};

/** Display names of the package's nodes, by node name (what the node panel lists). */
export const DISPLAY_NAMES: Readonly<Record<string, string>> = {
	campaignAlimtalk: 'Campaign Alimtalk',
	campaignMembers: 'Campaign Members',
	campaignCustomData: 'Campaign Custom Data',
	campaignLegacyData: 'Campaign Legacy Data',
};
