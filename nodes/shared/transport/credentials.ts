/**
 * The credential as the nodes use it: its type name, the base URL rules and the API key rules,
 * checked once per execution before anything is sent (docs/service-rules.md#base-url).
 */
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

export const CREDENTIAL_TYPE = 'campaignApi';

/** Host names for which plain http is allowed (this machine only). */
export const LOCAL_HOSTS = ['127.0.0.1', 'localhost', '[::1]', '::1'];

/** The words of the https rule, shared with the credential test so both refuse alike. */
export const HTTPS_RULE = 'must use https (http is allowed only for localhost)';

/** Normalises and checks a base URL: https, or http only for this machine. */
export function normalizeBaseUrl(raw: unknown, node: INode): string {
	const text = typeof raw === 'string' ? raw.trim() : '';
	const fail = (rule: string) =>
		new NodeOperationError(node, `Base URL in the Campaign API credential ${rule}`, {
			description: 'Example: https://api.example.com',
		});
	if (text === '') throw fail('is empty');
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		throw fail('is not a valid URL');
	}
	if (url.protocol !== 'https:' && url.protocol !== 'http:') throw fail('must start with https://');
	if (url.protocol === 'http:' && !LOCAL_HOSTS.includes(url.hostname)) throw fail(HTTPS_RULE);
	if (url.username !== '' || url.password !== '') throw fail('must not contain a user name or password');
	if (url.search !== '' || url.hash !== '') throw fail('must not contain a query (?) or a fragment (#)');
	// Checked on the text as typed: URL parsing has already resolved "a/../b" (and "%2e%2e") away.
	const typedPath = text.replace(/^[^:]*:[/\\]*[^/\\?#]*/, '').split(/[?#]/)[0];
	if (typedPath.split(/[/\\]/).some((segment) => /^(?:\.|%2e){1,2}$/i.test(segment)))
		throw fail('must not contain "." or ".." path segments');
	const path = url.pathname.replace(/\/+$/, '');
	return `${url.protocol}//${url.host}${path}`;
}

/** The key goes into a header: it must be present and hold no line break or control character. */
export function checkApiKey(raw: unknown, node: INode): void {
	if (typeof raw !== 'string' || raw.trim() === '') {
		throw new NodeOperationError(node, 'API Key in the Campaign API credential is empty', {
			description: 'Keys are issued in the service site settings, under key management.',
		});
	}
	// eslint-disable-next-line no-control-regex
	if (/[\u0000-\u001f\u007f]/.test(raw)) {
		throw new NodeOperationError(
			node,
			'API Key in the Campaign API credential contains a line break or another control character',
			{ description: 'Paste the key again without surrounding line breaks.' },
		);
	}
	// A header carries bytes: any other character (Korean, an emoji, U+2028) would be sent mangled.
	if (/[^\u0020-\u007e]/.test(raw)) {
		throw new NodeOperationError(
			node,
			'API Key in the Campaign API credential contains a character that cannot be sent in an HTTP header (only ASCII letters, digits and symbols)',
			{ description: 'Copy the key again from the service site settings, key management.' },
		);
	}
}
