/** Small network helpers for the runtime scripts: a free local port and a JSON HTTP client. */
'use strict';
const http = require('node:http');
const net = require('node:net');

/** A free TCP port on 127.0.0.1 (the preferred one when it is free). */
/**
 * @param {number} [preferred]
 * @returns {Promise<number>}
 */
async function freePort(preferred = 0) {
	const tryPort = (port) =>
		new Promise((resolve) => {
			const server = net.createServer();
			server.once('error', () => resolve(undefined));
			server.listen(port, '127.0.0.1', () => {
				const actual = server.address().port;
				server.close(() => resolve(actual));
			});
		});
	if (preferred) {
		const port = await tryPort(preferred);
		if (port) return port;
	}
	return tryPort(0);
}

/**
 * @typedef {object} HttpResponse
 * @property {number} status
 * @property {Record<string, string | string[] | undefined>} headers
 * @property {string} body
 */

/**
 * @param {string} url
 * @param {{ timeoutMs?: number }} [options]
 * @returns {Promise<HttpResponse>}
 */
function httpGet(url, { timeoutMs = 5000 } = {}) {
	return httpRequest('GET', url, { timeoutMs });
}

/**
 * A small HTTP client for n8n's REST API and the webhook (JSON bodies).
 * @param {string} method
 * @param {string} url
 * @param {{ body?: unknown, headers?: Record<string, string>, timeoutMs?: number }} [options]
 * @returns {Promise<HttpResponse>}
 */
function httpRequest(method, url, { body, headers = {}, timeoutMs = 10000 } = {}) {
	return new Promise((resolve, reject) => {
		const payload =
			body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
		const req = http.request(
			url,
			{
				method,
				timeout: timeoutMs,
				headers: {
					...(payload === undefined
						? {}
						: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
					...headers,
				},
			},
			(res) => {
				let text = '';
				res.setEncoding('utf8');
				res.on('data', (d) => (text += d));
				res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: text }));
			},
		);
		req.on('timeout', () =>
			req.destroy(new Error(`timeout after ${timeoutMs} ms: ${method} ${url}`)),
		);
		req.on('error', reject);
		req.end(payload);
	});
}

module.exports = { freePort, httpGet, httpRequest };
