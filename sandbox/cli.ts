/**
 * Runs the sandbox with demo data on 127.0.0.1 until SIGINT/SIGTERM.
 *
 *   npm run sandbox, or: npx gulp sandbox && node build/sandbox/cli.js [--port 8787] [--latency 0]
 *
 * The port comes from --port, else the environment variable SANDBOX_PORT, else 8787.
 */
import { seedDemoData } from './demo';
import { proc } from './node';
import { startSandbox } from './server';
import type { AccountStatus } from './types';

const DEFAULT_PORT = 8787;

/** Extra keys to try the account errors by hand. */
const DEMO_ACCOUNTS: Record<string, AccountStatus> = {
	'demo-unregistered-key': 'unregistered',
	'demo-unapproved-key': 'unapproved',
	'demo-expired-key': 'expired',
	'demo-no-permission-key': 'noPermission',
};

function argValue(args: string[], name: string): string | undefined {
	const index = args.findIndex((a) => a === name || a.startsWith(`${name}=`));
	if (index < 0) return undefined;
	const arg = args[index];
	return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : args[index + 1];
}

function parseNonNegativeInt(label: string, value: string | undefined, fallback: number): number {
	if (value === undefined || value === '') return fallback;
	const n = Number(value);
	if (!Number.isInteger(n) || n < 0) {
		proc.stderr.write(`Invalid ${label}: ${value}\n`);
		proc.exit(2);
	}
	return n;
}

async function main(): Promise<void> {
	const args = proc.argv.slice(2);
	const port = parseNonNegativeInt(
		'port',
		argValue(args, '--port') ?? proc.env.SANDBOX_PORT,
		DEFAULT_PORT,
	);
	const latencyMs = parseNonNegativeInt('latency', argValue(args, '--latency'), 0);

	const sb = await startSandbox({ port, latencyMs, accounts: DEMO_ACCOUNTS });
	seedDemoData(sb);

	proc.stdout.write(
		[
			`Campaign API sandbox listening on ${sb.baseUrl}`,
			`API key: ${sb.apiKey}`,
			`Other keys: ${Object.entries(DEMO_ACCOUNTS)
				.map(([key, status]) => `${key} (${status})`)
				.join(', ')}`,
			`Campaigns: ${[...sb.state.campaigns.keys()].join(', ')}`,
			latencyMs > 0 ? `Latency: ${latencyMs} ms per response` : '',
			'Press Ctrl+C to stop.',
		]
			.filter(Boolean)
			.join('\n') + '\n',
	);

	let stopping = false;
	const stop = (signal: string): void => {
		if (stopping) return;
		stopping = true;
		proc.stdout.write(`\n${signal}: stopping the sandbox\n`);
		void sb.close().then(() => proc.exit(0));
	};
	proc.on('SIGINT', () => stop('SIGINT'));
	proc.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
	proc.stderr.write(
		`Sandbox failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
	);
	proc.exit(1);
});
