/**
 * A tiny SMTP receiver for the end-to-end tests (node's `net`, no dependency): it listens on a
 * free 127.0.0.1 port, accepts every mail without authentication or TLS (the SMTP credential
 * sets `secure: false` and `disableStartTls: true`) and keeps each one, its body decoded from
 * quoted-printable, so a test can read the links n8n's Send Email review node mails.
 */
import { net, timer } from '../../support/node';

export interface ReceivedMail {
	from: string;
	to: string[];
	/** The raw message (headers and body) as sent. */
	raw: string;
	/** The message with quoted-printable soft breaks and escapes decoded, HTML entities of `&` undone. */
	text: string;
}

export interface SmtpServer {
	host: string;
	port: number;
	mails: ReceivedMail[];
	/** Resolves with the n-th mail (0-based) once it has arrived; rejects after `timeoutMs`. */
	mail(n: number, timeoutMs?: number): Promise<ReceivedMail>;
	close(): Promise<void>;
}

/** Quoted-printable decoding (RFC 2045): soft line breaks removed, `=XX` bytes restored, as UTF-8. */
export function decodeQuotedPrintable(text: string): string {
	const joined = text.replace(/=\r?\n/g, '');
	const bytes: number[] = [];
	for (let i = 0; i < joined.length; i++) {
		const hex = joined.slice(i + 1, i + 3);
		if (joined[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
			bytes.push(parseInt(hex, 16));
			i += 2;
		} else {
			bytes.push(...Buffer.from(joined[i], 'utf8'));
		}
	}
	return Buffer.from(bytes).toString('utf8');
}

/** The links of a mail whose URL contains `part` (e.g. `approved=true`). */
export function linksOf(mail: ReceivedMail, part: string): string[] {
	const links = [...mail.text.matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
	return links.filter((link) => link.includes(part));
}

function session(socket: net.Socket, received: (mail: ReceivedMail) => void): void {
	let buffer = '';
	let inData = false;
	let from = '';
	let to: string[] = [];
	const reply = (line: string) => socket.write(`${line}\r\n`);
	socket.setEncoding('utf8');
	reply('220 localhost e2e SMTP ready');
	socket.on('data', (chunk: string) => {
		buffer += chunk;
		for (;;) {
			if (inData) {
				const end = buffer.indexOf('\r\n.\r\n');
				if (end < 0) return;
				const raw = buffer.slice(0, end).replace(/^\.\./gm, '.');
				buffer = buffer.slice(end + 5);
				inData = false;
				const text = decodeQuotedPrintable(raw).replace(/&amp;/g, '&');
				received({ from, to, raw, text });
				reply('250 OK: queued');
				continue;
			}
			const eol = buffer.indexOf('\r\n');
			if (eol < 0) return;
			const line = buffer.slice(0, eol);
			buffer = buffer.slice(eol + 2);
			const verb = line.slice(0, 4).toUpperCase();
			if (verb === 'EHLO') {
				reply('250-localhost');
				reply('250-8BITMIME');
				reply('250 SMTPUTF8');
			} else if (verb === 'HELO') reply('250 localhost');
			else if (verb === 'MAIL') {
				from = line.slice(line.indexOf(':') + 1).trim();
				to = [];
				reply('250 OK');
			} else if (verb === 'RCPT') {
				to.push(line.slice(line.indexOf(':') + 1).trim());
				reply('250 OK');
			} else if (verb === 'DATA') {
				inData = true;
				reply('354 End data with <CR><LF>.<CR><LF>');
			} else if (verb === 'QUIT') {
				reply('221 Bye');
				socket.end();
				return;
			} else if (verb === 'RSET' || verb === 'NOOP') reply('250 OK');
			else reply('502 Command not implemented');
		}
	});
	socket.on('error', () => socket.destroy());
}

export async function startSmtpServer(): Promise<SmtpServer> {
	const mails: ReceivedMail[] = [];
	const waiters: Array<() => void> = [];
	const sockets = new Set<net.Socket>();
	const server = net.createServer((socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
		session(socket, (mail) => {
			mails.push(mail);
			waiters.splice(0).forEach((wake) => wake());
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as net.AddressInfo;
	const mail = (n: number, timeoutMs = 60000) =>
		new Promise<ReceivedMail>((resolve, reject) => {
			const deadline = timer(timeoutMs, () =>
				reject(new Error(`mail ${n} did not arrive within ${timeoutMs} ms`)),
			);
			const check = () => {
				if (!mails[n]) return void waiters.push(check);
				deadline.cancel();
				resolve(mails[n]);
			};
			check();
		});
	return {
		host: '127.0.0.1',
		port,
		mails,
		mail,
		close: () =>
			new Promise<void>((resolve) => {
				sockets.forEach((socket) => socket.destroy());
				server.close(() => resolve());
			}),
	};
}
