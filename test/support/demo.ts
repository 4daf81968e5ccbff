/**
 * What a user does with the demo `npm start` and `npm run start:queue` print: read the ready
 * banner, sign in with the printed login, send the example event to the printed webhook with the
 * printed secret header, and look
 * at the execution it started through n8n's REST API (test/e2e/readme-commands.e2e.ts and
 * test/queue/start-queue.queue.ts).
 */
import * as rt from '../../scripts/runtime';
import { portIsFree } from '../../scripts/queue/process-groups';
import { delay, fs } from './node';

/** The event example workflow both demos publish (examples/). */
export const EVENT_EXAMPLE = 'cmExampleEventMsg';

export interface Banner {
	editor: string;
	email: string;
	password: string;
	webhook: string;
	/** The event example's webhook secret, and the curl line's header that sends it. */
	webhookSecret: string;
	curlHeader: string;
	sandbox: string;
	readyIn: string;
}

/** The fields of a ready banner, read the way a user reads them. */
export function readBanner(stdout: string): Banner {
	const field = (pattern: RegExp, name: string) => {
		const value = pattern.exec(stdout)?.[1];
		if (!value) throw new Error(`the ready banner has no ${name}:\n${stdout}`);
		return value;
	};
	const [email, password] = field(/^\s+login\s+(\S+ \/ \S+)/m, 'login').split(' / ');
	return {
		editor: field(/^\s+n8n editor\s+(http:\/\/\S+?)\/?\s/m, 'editor URL'),
		email,
		password,
		webhook: field(/^\s+webhook\s+(http:\/\/\S+)/m, 'webhook URL'),
		webhookSecret: field(/^\s+webhook secret\s+(\S+)/m, 'webhook secret'),
		curlHeader: field(/^\s+-H '([^']+)' \\$/m, "curl's secret header"),
		sandbox: field(/^\s+sandbox\s+(http:\/\/\S+)/m, 'sandbox URL'),
		readyIn: field(/ready in (\S+)\. Press Ctrl\+C/, 'ready time'),
	};
}

/** Signs in with the banner's login; resolves with the session cookie ("n8n-auth=..."). */
export function signIn(banner: Banner): Promise<string> {
	return rt.login(banner.editor, banner.email, banner.password);
}

/**
 * POSTs `body` to the webhook, with `secret` in the example's header when given; a just-published
 * workflow's webhook answers 404 for a moment.
 */
export async function postEvent(
	url: string,
	body: Record<string, unknown>,
	secret?: string,
): Promise<number> {
	const headers = secret === undefined ? {} : { [rt.WEBHOOK_HEADER]: secret };
	let res = await rt.httpRequest('POST', url, { body, headers });
	for (let i = 0; i < 60 && res.status === 404; i++) {
		await delay(500);
		res = await rt.httpRequest('POST', url, { body, headers });
	}
	return res.status;
}

/** The permission bits of a file or folder, as octal text ("700"). */
export function modeOf(file: string): string {
	return (fs.statSync(file).mode & 0o777).toString(8);
}

type Item = { json: Record<string, unknown> };
type RunData = Record<string, Array<{ data?: { main?: Item[][] } }>>;

/**
 * Waits until the workflow has `count` finished executions; resolves with their statuses and the
 * items each node put out on its first output, per execution.
 */
export async function finishedExecutions(
	banner: Banner,
	cookie: string,
	workflowId: string,
	count: number,
) {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	let results: Array<{ id: string; status: string }> = [];
	for (let i = 0; i < 240; i++) {
		const res = await rt.httpRequest('GET', `${banner.editor}/rest/executions?filter=${filter}`, {
			headers: { cookie },
		});
		if (res.status !== 200) throw new Error(`GET /rest/executions: HTTP ${res.status}`);
		results = JSON.parse(res.body).data.results;
		if (
			results.length >= count &&
			results.every((e) => !['new', 'running', 'waiting'].includes(e.status))
		)
			break;
		await delay(500);
	}
	return Promise.all(
		results.map(async ({ id, status }) => {
			const res = await rt.httpRequest('GET', `${banner.editor}/rest/executions/${id}`, {
				headers: { cookie },
			});
			const runData = rt.parseRunData(rt.runtimePaths(), JSON.parse(res.body).data.data).resultData
				.runData as RunData;
			const output = (node: string) =>
				(runData[node]?.[0]?.data?.main?.[0] ?? []).map((item) => item.json);
			return { id, status, nodes: Object.keys(runData), output };
		}),
	);
}

/** True when nothing listens at `url`'s port any more. */
export function stoppedAnswering(url: string): Promise<boolean> {
	return portIsFree(Number(new URL(url).port));
}
