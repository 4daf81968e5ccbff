/**
 * Routing, authentication and the Content-Type rule of the custom-data and member endpoints.
 */
import { isJsonContentType, type RequestContext, type ResolvedOptions } from '../context';
import { envelope, notRoutedReply, type Reply } from '../envelope';
import {
	CUSTOM_V2,
	LEGACY_V1,
	deleteKeys,
	deleteMembers,
	readEntries,
	writeEntries,
} from './customData';
import { deleteMembersV1, postMembersV1, readMembersV1 } from './membersV1';
import { postMembersV2, readMembersV2 } from './membersV2';
import { postTrigger } from './trigger';

type Handler = (ctx: RequestContext) => Reply;

interface Route {
	/** Member endpoints require `Content-Type: application/json` on writes (spec 5.2); custom data does not. */
	requiresJsonContentType: boolean;
	methods: Partial<Record<string, Handler>>;
}

export const TRIGGER_PATH = '/messages/alimtalk/trigger';

const ROUTES: Readonly<Record<string, Route>> = {
	'/v2/custom': {
		requiresJsonContentType: false,
		methods: {
			GET: (ctx) => readEntries(ctx, CUSTOM_V2),
			POST: (ctx) => writeEntries(ctx, CUSTOM_V2),
			PUT: (ctx) => writeEntries(ctx, CUSTOM_V2),
			DELETE: (ctx) => deleteMembers(ctx, CUSTOM_V2),
		},
	},
	'/v2/custom/data-format-name': {
		requiresJsonContentType: false,
		methods: { DELETE: (ctx) => deleteKeys(ctx, CUSTOM_V2) },
	},
	'/v1/legacy': {
		requiresJsonContentType: false,
		methods: {
			GET: (ctx) => readEntries(ctx, LEGACY_V1),
			POST: (ctx) => writeEntries(ctx, LEGACY_V1),
			PUT: (ctx) => writeEntries(ctx, LEGACY_V1),
			DELETE: (ctx) => deleteMembers(ctx, LEGACY_V1),
		},
	},
	'/v1/legacy/data-format-name': {
		requiresJsonContentType: false,
		methods: { DELETE: (ctx) => deleteKeys(ctx, LEGACY_V1) },
	},
	'/v1/users/sms': {
		requiresJsonContentType: true,
		methods: { GET: readMembersV1, POST: postMembersV1, DELETE: deleteMembersV1 },
	},
	'/v2/users/sms': {
		requiresJsonContentType: true,
		methods: { GET: readMembersV2, POST: postMembersV2 },
	},
};

/** URL path as routed: a trailing slash is ignored. */
export function normalizePath(pathname: string): string {
	return pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
}

/** v1 member save/delete responses (POST and DELETE `/v1/users/sms`) may spell `code` as `col`. */
export function statusFieldFor(
	method: string,
	path: string,
	options: ResolvedOptions,
): 'code' | 'col' {
	return options.v1ColMisspelling &&
		path === '/v1/users/sms' &&
		(method === 'POST' || method === 'DELETE')
		? 'col'
		: 'code';
}

/**
 * Authentication of the custom-data and member endpoints (spec 5.3, 7.1): missing or empty key
 * -1000; unknown key or 'unregistered' -1001; 'unapproved' -1002; 'expired' -1003. 'noPermission'
 * is a triggered-send notion (1402): here the account behaves like an active one.
 */
function dataAuthCode(ctx: RequestContext): number | undefined {
	const key = ctx.headers['x-api-key'];
	if (!key) return -1000;
	const status = key === ctx.options.apiKey ? 'active' : ctx.options.accounts[key];
	switch (status) {
		case 'active':
		case 'noPermission':
			return undefined;
		case 'unapproved':
			return -1002;
		case 'expired':
			return -1003;
		default:
			return -1001;
	}
}

/**
 * Decisions: an unknown path is HTTP 404 and a method the path does not have is HTTP 405 (both with
 * an envelope carrying -9998, "HTTP related error"), checked before the key. On member endpoints,
 * every POST/PUT/DELETE without `Content-Type: application/json` is -9998 (checked after the key).
 */
export function routeRequest(ctx: RequestContext): Reply {
	if (ctx.path === TRIGGER_PATH)
		return ctx.method === 'POST' ? postTrigger(ctx) : notRoutedReply(405);
	const route = ROUTES[ctx.path];
	if (!route) return notRoutedReply(404);
	const handler = route.methods[ctx.method];
	if (!handler) return notRoutedReply(405);

	const auth = dataAuthCode(ctx);
	if (auth !== undefined) return envelope(ctx, auth, null);
	if (
		route.requiresJsonContentType &&
		ctx.method !== 'GET' &&
		!isJsonContentType(ctx.headers['content-type'])
	) {
		return envelope(ctx, -9998, null);
	}
	return handler(ctx);
}
