/**
 * Triggered messaging-app send (spec 4.5, POST `/messages/alimtalk/trigger`), codes of spec 7.3.
 */
import { isJsonContentType, isPlainObject, parseBody, type RequestContext } from '../context';
import { triggerReply, type Reply } from '../envelope';
import { isIsoDate } from '../rules';
import type { CampaignConfig } from '../types';

const PROFILE_CODES: Record<CampaignConfig['profileState'], number | undefined> = {
	active: undefined,
	blocked: 7002,
	dormant: 7003,
};

const TEMPLATE_CODES: Record<CampaignConfig['templateState'], number | undefined> = {
	approved: undefined,
	waiting: 7004,
	reviewRequested: 7005,
	dormant: 7006,
	blocked: 7007,
	suspended: 7008,
	rejected: 7009,
	expired: 7010,
};

/**
 * Authentication of the send (spec 5.3, 7.3): missing key 1101; unknown key 1401; then by account
 * status noPermission 1402, unregistered 1403, unapproved 1404, expired 1405. An empty header
 * counts as missing.
 */
function authCode(ctx: RequestContext): number | undefined {
	const key = ctx.headers['x-api-key'];
	if (!key) return 1101;
	const status = key === ctx.options.apiKey ? 'active' : ctx.options.accounts[key];
	switch (status) {
		case 'active':
			return undefined;
		case 'noPermission':
			return 1402;
		case 'unregistered':
			return 1403;
		case 'unapproved':
			return 1404;
		case 'expired':
			return 1405;
		default:
			return 1401;
	}
}

/** A required variable counts as missing when absent, null or an empty string (decision). */
function isMissing(value: unknown): boolean {
	return (
		value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
	);
}

/**
 * Order of the checks (decision where the spec is silent):
 *  1. key: 1101, 1401..1405;
 *  2. Content-Type not application/json (absent or another type): 1102;
 *  3. body empty (no bytes, only whitespace, or `{}`): 1201;
 *  4. body not JSON: 1203;
 *  5. `users` an array of more than 1 element: 1202;
 *  6. types: body not an object, campaignKey present but not a string, users present but not an
 *     array, a user not an object, phoneNumber present but not a string, properties present (not
 *     null) but not an object: 1203;
 *  7. campaignKey missing/empty/unknown, users missing/empty, phoneNumber missing: 7011;
 *  8. phoneNumber length (in characters, whatever they are) not 12: 7012;
 *  9. campaign: channel not linked 7001; profile 7002/7003; template 7004..7010; no unit price 7997;
 * 10. a required template variable missing in properties: 7011;
 * 11. a date variable present but not a real YYYY-MM-DD: 1204.
 * Success: the message is recorded in state.sent, code 0 with HTTP 200.
 */
export function postTrigger(ctx: RequestContext): Reply {
	const auth = authCode(ctx);
	if (auth !== undefined) return triggerReply(ctx, auth);
	if (!isJsonContentType(ctx.headers['content-type'])) return triggerReply(ctx, 1102);

	const parsed = parseBody(ctx.rawBody);
	if (parsed.kind === 'empty') return triggerReply(ctx, 1201);
	if (parsed.kind === 'invalid') return triggerReply(ctx, 1203);
	const body = parsed.value;
	if (isPlainObject(body) && Object.keys(body).length === 0) return triggerReply(ctx, 1201);
	if (isPlainObject(body) && Array.isArray(body.users) && body.users.length > 1)
		return triggerReply(ctx, 1202);

	if (!isPlainObject(body)) return triggerReply(ctx, 1203);
	const { campaignKey, users } = body;
	if (campaignKey !== undefined && campaignKey !== null && typeof campaignKey !== 'string')
		return triggerReply(ctx, 1203);
	if (users !== undefined && users !== null && !Array.isArray(users))
		return triggerReply(ctx, 1203);
	const user: unknown = Array.isArray(users) ? users[0] : undefined;
	if (user !== undefined && !isPlainObject(user)) return triggerReply(ctx, 1203);
	const userObject = isPlainObject(user) ? user : undefined;
	const phoneNumber = userObject?.phoneNumber;
	const properties = userObject?.properties;
	if (phoneNumber !== undefined && phoneNumber !== null && typeof phoneNumber !== 'string')
		return triggerReply(ctx, 1203);
	if (properties !== undefined && properties !== null && !isPlainObject(properties))
		return triggerReply(ctx, 1203);

	const campaign =
		typeof campaignKey === 'string' ? ctx.state.campaigns.get(campaignKey) : undefined;
	if (!campaign || typeof campaignKey !== 'string')
		return triggerReply(ctx, 7011, 'campaignKey missing or unknown');
	if (typeof phoneNumber !== 'string')
		return triggerReply(ctx, 7011, 'users[0].phoneNumber missing');
	if (phoneNumber.length !== 12) return triggerReply(ctx, 7012);

	if (!campaign.channelLinked) return triggerReply(ctx, 7001);
	const profileCode = PROFILE_CODES[campaign.profileState];
	if (profileCode !== undefined) return triggerReply(ctx, profileCode);
	const templateCode = TEMPLATE_CODES[campaign.templateState];
	if (templateCode !== undefined) return triggerReply(ctx, templateCode);
	if (!campaign.unitPriceSet) return triggerReply(ctx, 7997);

	const props: Record<string, unknown> = isPlainObject(properties) ? properties : {};
	const missing = campaign.requiredVariables.find((name) => isMissing(props[name]));
	if (missing !== undefined) return triggerReply(ctx, 7011, `template variable ${missing} missing`);
	const badDate = campaign.dateVariables.find(
		(name) => props[name] !== undefined && props[name] !== null && !isIsoDate(props[name]),
	);
	if (badDate !== undefined)
		return triggerReply(ctx, 1204, `template variable ${badDate} is not YYYY-MM-DD`);

	ctx.state.sent.push({ campaignKey, phoneNumber, properties: { ...props }, at: Date.now() });
	return triggerReply(ctx, 0);
}
