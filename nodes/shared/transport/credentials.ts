/**
 * The credential as the nodes use it: its type name, the base URL rules and the API key rules,
 * checked once per execution before anything is sent (docs/service-rules.md#base-url).
 */
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

export const CREDENTIAL_TYPE = 'campaignApi';

/**
 * The Base URL rule, one function for the nodes and the credential test: the words that complete
 * "Base URL in the Campaign API credential ...", or '' for a Base URL the package sends to.
 * Deliberately self-contained (no names from outside, no URL parser): the credential test runs
 * this very function's source inside an n8n expression (credentials/CampaignApi.credentials.ts),
 * where there is no URL class, so both refuse exactly the same texts. It accepts a strict form
 * (`scheme://host[:port][/path]`), so that no URL parser can read the host differently: a user
 * name (`http://127.0.0.1:80@evil.example/`), a backslash or a space never passes.
 */
export function baseUrlProblem(raw: unknown): string {
	const text = typeof raw === 'string' ? raw.trim() : '';
	if (text === '') return 'is empty';
	const parts = /^([a-z][a-z0-9+.-]*):\/\/([^/?#\\]*)(.*)$/i.exec(text);
	if (parts === null)
		return /^[a-z][a-z0-9+.-]*:/i.test(text) && !/^https?:/i.test(text)
			? 'must start with https://'
			: 'is not a valid URL';
	const scheme = parts[1].toLowerCase();
	const authority = parts[2];
	const rest = parts[3];
	if (scheme !== 'https' && scheme !== 'http') return 'must start with https://';
	if (authority.indexOf('@') >= 0) return 'must not contain a user name or password';
	if (/[?#]/.test(rest)) return 'must not contain a query (?) or a fragment (#)';
	const hostPort =
		/^([a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::([0-9]{1,5}))?$/i.exec(
			authority,
		);
	if (hostPort === null || Number(hostPort[2] || '0') > 65535) return 'is not a valid URL';
	const host = hostPort[1].toLowerCase();
	// An IPv6 literal must be one ([:::] is not, and URL parsing would throw on it later). Checked
	// here, in this function, without URL: its source also runs in the credential test's
	// expression (credentials/CampaignApi.credentials.ts), which has no URL class.
	if (host.charAt(0) === '[') {
		const halves = host.slice(1, -1).split('::');
		if (halves.length > 2) return 'is not a valid URL';
		const groups = halves.map((half) => (half === '' ? [] : half.split(':')));
		const all = groups.length === 2 ? groups[0].concat(groups[1]) : groups[0];
		const ipv4Allowed = halves[halves.length - 1] !== '';
		let count = 0;
		for (let i = 0; i < all.length; i++) {
			const group = all[i];
			if (/^[0-9a-f]{1,4}$/.test(group)) count += 1;
			else if (
				i === all.length - 1 &&
				ipv4Allowed &&
				/^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/.test(
					group,
				)
			)
				count += 2;
			else return 'is not a valid URL';
		}
		if (halves.length === 2 ? count > 7 : count !== 8) return 'is not a valid URL';
	}
	if (scheme === 'http' && host !== 'localhost' && host !== '127.0.0.1' && host !== '[::1]')
		return 'must use https (http is allowed only for localhost)';
	if (rest.split(/[/\\]/).some((segment) => /^(?:\.|%2e){1,2}$/i.test(segment)))
		return 'must not contain "." or ".." path segments';
	if (!/^(?:\/(?:[a-z0-9._~!$&'()*+,;=:@-]|%[0-9a-f]{2})*)*$/i.test(rest))
		return 'is not a valid URL';
	return '';
}

/** Normalises and checks a base URL (baseUrlProblem); returns it without trailing slashes. */
export function normalizeBaseUrl(raw: unknown, node: INode): string {
	const problem = baseUrlProblem(raw);
	if (problem !== '') {
		throw new NodeOperationError(node, `Base URL in the Campaign API credential ${problem}`, {
			description: 'Example: https://api.example.com',
		});
	}
	const url = new URL(String(raw).trim());
	return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
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
