/**
 * Demo data: enough to click through every operation by hand (cli.ts) or to start a test from a
 * realistic state. Deterministic: the same data every time.
 */
import type { MemberV2Record, Sandbox } from './types';

export const DEMO_KEYS = {
	name: 'string',
	points: 'number',
	grade: 'string',
	birthday: 'date',
	lastOrderDate: 'date',
} as const;

const NAMES = [
	'Kim Minji',
	'Lee Jiho',
	'Park Seoyeon',
	'Choi Hyunwoo',
	'Jung Yuna',
	'Kang Doyun',
	'Yoon Sora',
	'Jang Taemin',
];
const GRADES = ['bronze', 'silver', 'gold', 'vip'];

function pad(n: number): string {
	return String(n).padStart(2, '0');
}

export function seedDemoData(sb: Sandbox): void {
	for (const [key, format] of Object.entries(DEMO_KEYS)) sb.registerKey(key, format);

	// 8 members x 5 keys = 40 custom (v2) entries; members 1..6 also have legacy (v1) entries.
	NAMES.forEach((name, i) => {
		const memberId = `member-${pad(i + 1)}`;
		sb.state.custom.set(
			memberId,
			new Map<string, string | number>([
				['name', name],
				['points', (i + 1) * 150],
				['grade', GRADES[i % GRADES.length]],
				['birthday', `19${80 + i}-${pad((i % 12) + 1)}-${pad(i + 10)}`],
				['lastOrderDate', `2024-${pad((i % 12) + 1)}-${pad(i + 3)}`],
			]),
		);
		if (i < 6) {
			sb.state.legacy.set(
				memberId,
				new Map<string, string | number>([
					['name', name],
					['points', (i + 1) * 100],
					['grade', GRADES[(i + 1) % GRADES.length]],
					['memo', `legacy note ${i + 1}`], // a key outside the registry: legacy v1 keeps it as text
				]),
			);
		}
	});

	sb.state.membersV1.set('member-01', {
		memberId: 'member-01',
		phoneNumber: '01012345678',
		isReceive: true,
		name: 'Kim Minji',
	});
	sb.state.membersV1.set('member-02', {
		memberId: 'member-02',
		phoneNumber: '010-2345-6789',
		isReceive: false,
	});

	const v2: MemberV2Record[] = [
		{ memberId: 'member-01', phoneNumber: '010-1234-5678', isReceive: 'true', name: 'Kim Minji' },
		{ memberId: 'member-02', phoneNumber: '010-2345-6789', isReceive: 'false' },
		{ memberId: 'member-03', phoneNumber: '011-345-6789', isReceive: 'true', name: 'Park Seoyeon' },
		// Two records under one member id (v2 allows it: the unique key is the phone).
		{
			memberId: 'member-03',
			phoneNumber: '010-3456-7890',
			isReceive: 'false',
			name: 'Park Seoyeon',
		},
	];
	for (const record of v2) sb.state.membersV2.set(record.phoneNumber.replace(/-/g, ''), record);

	sb.addCampaign('DEMO-WELCOME', { requiredVariables: ['name', 'coupon'] });
	sb.addCampaign('DEMO-BLOCKED', { templateState: 'blocked' });
	sb.addCampaign('DEMO-EXPIRY', { requiredVariables: ['name'], dateVariables: ['expiryDate'] });
}
