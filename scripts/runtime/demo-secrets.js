/**
 * The secrets of one n8n user folder of this repository (the demo's, a test's, a queue cluster's):
 * the owner's password and the event example's webhook secret, made at random on first use and
 * kept in `campaign-demo-secrets.json` in that folder, readable by its owner only (the folder 0700,
 * the file 0600), so a start of the same folder reuses them and another folder gets its own.
 * A fixed password would let another local user, a forwarded port or a DNS-rebinding web page
 * sign in as the owner (n8n does not check the Host header).
 */
'use strict';
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const SECRETS_FILE = 'campaign-demo-secrets.json';

/** The Header Auth credential the event example's Webhook node uses (examples/event-to-message.json). */
const WEBHOOK_CREDENTIAL = {
	id: 'campaignWebhookAuth1',
	name: 'Campaign Webhook Header',
	type: 'httpHeaderAuth',
};

/** @type {string} The header a caller of the event example's webhook sends the secret in. */
const WEBHOOK_HEADER = 'X-Campaign-Webhook-Secret';

/**
 * A password n8n accepts (8 to 64 characters, a digit, an upper-case letter): 24 random
 * characters of letters and digits, about 140 bits.
 */
function newPassword() {
	const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
	for (;;) {
		const bytes = crypto.randomBytes(24);
		const password = Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
		if (/[A-Z]/.test(password) && /[a-z]/.test(password) && /\d/.test(password)) return password;
	}
}

/** Creates `dir` (and missing parents) if needed, and makes it its owner's only (0700). */
function ownerOnlyFolder(dir) {
	fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
	fs.chmodSync(dir, 0o700);
	return dir;
}

/**
 * The folder's secrets, made and saved on first use (the folder is made 0700 on the way).
 * @param {string} userFolder
 * @returns {{ ownerPassword: string, webhookSecret: string, file: string }}
 */
function folderSecrets(userFolder) {
	ownerOnlyFolder(userFolder);
	const file = path.join(userFolder, SECRETS_FILE);
	try {
		const saved = JSON.parse(fs.readFileSync(file, 'utf8'));
		if (typeof saved.ownerPassword === 'string' && typeof saved.webhookSecret === 'string') {
			fs.chmodSync(file, 0o600);
			return { ownerPassword: saved.ownerPassword, webhookSecret: saved.webhookSecret, file };
		}
	} catch (error) {
		if (error.code !== 'ENOENT' && !(error instanceof SyntaxError)) throw error;
	}
	const secrets = {
		ownerPassword: newPassword(),
		webhookSecret: crypto.randomBytes(32).toString('base64url'),
	};
	fs.rmSync(file, { force: true });
	fs.writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
	return { ...secrets, file };
}

/** The Header Auth credential to import, with the folder's webhook secret. */
function webhookCredential(webhookSecret) {
	return { ...WEBHOOK_CREDENTIAL, data: { name: WEBHOOK_HEADER, value: webhookSecret } };
}

/**
 * The banner's lines for the event example's webhook: the secret, and a curl that sends it.
 * @param {string} webhook  the webhook's URL
 * @param {string} webhookSecret
 * @param {string} note  what follows the URL, e.g. "(the event example is published)"
 */
function webhookBannerLines(webhook, webhookSecret, note) {
	return [
		`  webhook         ${webhook}  ${note}, e.g.`,
		`                  curl -X POST ${webhook} -H 'content-type: application/json' \\`,
		`                    -H '${WEBHOOK_HEADER}: ${webhookSecret}' \\`,
		`                    -d '{"phoneNumber":"821012345678","name":"Kim Minji","coupon":"WELCOME10"}'`,
		`  webhook secret  ${webhookSecret}  (header ${WEBHOOK_HEADER}; credential "${WEBHOOK_CREDENTIAL.name}")`,
	];
}

module.exports = {
	webhookBannerLines,
	SECRETS_FILE,
	WEBHOOK_CREDENTIAL,
	WEBHOOK_HEADER,
	folderSecrets,
	ownerOnlyFolder,
	webhookCredential,
};
