/**
 * Reference model of the Alimtalk send: which items the node refuses before sending, which the
 * service refuses, and the messages sent, computed from the generated items by the documented
 * rules (the shared rules and the custom data models: models.ts).
 */
import { SEND_PHONES } from './arbitraries-sends';
import { hasOwn, isIsoDate } from './models';

export interface SendInput {
	campaign: unknown;
	phone: number;
	k1: string;
	v1: unknown;
	k2: string;
	v2: unknown;
	ref: string;
}

export interface CampaignRule {
	templateBlocked?: boolean;
	required?: string[];
	dates?: string[];
}

/**
 * One send per item: the node refuses an empty campaign key (7011), a number that is not 12
 * characters (7012) and unusable template variables (1203); the service then refuses an unknown
 * campaign (7011), a blocked template (7007), a missing required variable (7011) and a date
 * variable that is not YYYY-MM-DD (1204). Gives each item's outcome and the messages sent.
 */
export function expectedSends(
	items: SendInput[],
	convert: boolean,
	campaigns: Record<string, CampaignRule>,
) {
	const outcomes: string[] = [];
	const sent: Array<{
		campaignKey: string;
		phoneNumber: string;
		properties: Record<string, unknown>;
	}> = [];
	items.forEach((item, index) => {
		const campaignKey =
			typeof item.campaign === 'string' || typeof item.campaign === 'number'
				? String(item.campaign).trim()
				: '';
		const table = SEND_PHONES[item.phone];
		const phoneNumber = convert ? table.converted : table.asIs;
		if (campaignKey === '') return void (outcomes[index] = '7011');
		if (phoneNumber === null) return void (outcomes[index] = '7012');
		const properties: Record<string, unknown> = {};
		for (const [rawKey, value] of [
			['ref', item.ref],
			[item.k1, item.v1],
			[item.k2, item.v2],
		] as Array<[string, unknown]>) {
			const key = rawKey.trim();
			if (key === '' || /[\r\n]/.test(key) || hasOwn(properties, key))
				return void (outcomes[index] = '1203');
			Object.defineProperty(properties, key, {
				value,
				enumerable: true,
				configurable: true,
				writable: true,
			});
		}
		const rule = hasOwn(campaigns, campaignKey) ? campaigns[campaignKey] : undefined;
		const missing = (v: unknown) =>
			v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
		if (!rule) return void (outcomes[index] = '7011');
		if (rule.templateBlocked) return void (outcomes[index] = '7007');
		if ((rule.required ?? []).some((name) => missing(properties[name])))
			return void (outcomes[index] = '7011');
		if (
			(rule.dates ?? []).some(
				(name) =>
					properties[name] !== undefined &&
					properties[name] !== null &&
					!isIsoDate(properties[name]),
			)
		) {
			return void (outcomes[index] = '1204');
		}
		outcomes[index] = 'ok';
		sent.push({ campaignKey, phoneNumber, properties });
	});
	return { outcomes, sent };
}
