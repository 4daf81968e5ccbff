/**
 * The commands of docs/development.md run exactly as a user types them (`npm start`, `npm run sandbox`...): a
 * child process of `npm` with no stdin, in its own process group, in the repository. Ctrl-C is
 * SIGINT to that whole group, as a terminal sends it. What the command started is followed through
 * /proc (every descendant, whatever group it moved to), so a test can say that nothing is left.
 */
import { cleanEnv } from '../../scripts/runtime';
import { ROOT, childProcess, delay, fs, proc, timer } from './node';

export interface CommandResult {
	code: number | null;
	signal: string | null;
	stdout: string;
	stderr: string;
	ms: number;
}

export interface RunningCommand {
	readonly pid: number;
	readonly started: number;
	/** Resolves once the command exited, with everything it printed. */
	readonly exited: Promise<CommandResult>;
	stdout(): string;
	stderr(): string;
	/** Resolves with the first match of `pattern` in stdout; rejects if the command exits first or time runs out. */
	waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray>;
	/** Every process started under the command, alive now (the command's own process included). */
	tree(): number[];
	/** Ctrl-C: SIGINT to the command's process group; resolves once the command exited. */
	interrupt(timeoutMs?: number): Promise<CommandResult>;
	/** SIGKILL to the group and every descendant (clean-up after a failed test). */
	kill(): void;
}

/** Starts a command line (`['npm', 'start']`) the way a user does in a terminal, in the repository. */
export function startCommand(
	argv: string[],
	extraEnv: Record<string, string> = {},
): RunningCommand {
	const started = Date.now();
	const [file, ...args] = argv;
	// A user's shell: without what jest and the outer `npm run` set for themselves (cleanEnv).
	const child = childProcess.spawn(file, args, {
		cwd: ROOT,
		env: cleanEnv(extraEnv),
		detached: true,
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let out = '';
	let err = '';
	child.stdout.on('data', (d: Buffer) => (out += d.toString()));
	child.stderr.on('data', (d: Buffer) => (err += d.toString()));
	const exited = new Promise<CommandResult>((resolve) =>
		child.once('exit', (code, signal) =>
			resolve({ code, signal, stdout: out, stderr: err, ms: Date.now() - started }),
		),
	);
	const done = () => child.exitCode !== null || child.signalCode !== null;
	const pid = child.pid as number;
	const seen = new Set<number>([pid]);
	const tree = () => {
		for (const p of descendants(pid)) seen.add(p);
		return [...seen].filter(isAlive);
	};
	return {
		pid,
		started,
		exited,
		stdout: () => out,
		stderr: () => err,
		async waitFor(pattern, timeoutMs) {
			const until = Date.now() + timeoutMs;
			for (;;) {
				const match = pattern.exec(out);
				if (match) return match;
				tree();
				if (done())
					throw new Error(
						`${argv.join(' ')} exited (${child.exitCode ?? child.signalCode}) before printing ${pattern}:\n${tail(out, err)}`,
					);
				if (Date.now() > until)
					throw new Error(
						`${argv.join(' ')} did not print ${pattern} within ${timeoutMs} ms:\n${tail(out, err)}`,
					);
				await delay(250);
			}
		},
		tree,
		async interrupt(timeoutMs = 60000) {
			tree();
			signalGroup(pid, 'SIGINT');
			const result = await within(exited, timeoutMs);
			if (!result)
				throw new Error(
					`${argv.join(' ')} did not exit within ${timeoutMs} ms of Ctrl-C:\n${tail(out, err)}`,
				);
			return result;
		},
		kill() {
			for (const p of tree()) signal(p, 'SIGKILL');
			signalGroup(pid, 'SIGKILL');
		},
	};
}

/** Runs a command line to its end (no stdin) and resolves with what it printed. */
export async function runCommand(
	argv: string[],
	extraEnv: Record<string, string> = {},
	timeoutMs = 10 * 60 * 1000,
): Promise<CommandResult> {
	const command = startCommand(argv, extraEnv);
	const result = await within(command.exited, timeoutMs);
	if (result) return result;
	command.kill();
	throw new Error(
		`${argv.join(' ')} did not finish within ${timeoutMs} ms:\n${tail(command.stdout(), command.stderr())}`,
	);
}

/** Lines a command wrote to stderr, without npm's own warnings about the machine's npm config. */
export function ownStderrLines(stderr: string): string[] {
	return stderr
		.split('\n')
		.filter((line) => line.trim() !== '' && !/^npm (warn|notice)\b/.test(line));
}

/** Waits until none of `pids` is alive; resolves with those still alive after `timeoutMs`. */
export async function waitGone(pids: number[], timeoutMs = 30000): Promise<number[]> {
	const until = Date.now() + timeoutMs;
	for (;;) {
		const alive = pids.filter(isAlive);
		if (alive.length === 0 || Date.now() > until) return alive;
		await delay(200);
	}
}

/** A process's command line, for messages about what was left running. */
export function describe(pid: number): string {
	try {
		return `${pid} ${fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim()}`;
	} catch {
		return `${pid} (gone)`;
	}
}

/** The promise's value, or undefined once `ms` passed (the timer does not outlive it). */
function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
	return new Promise((resolve) => {
		const limit = timer(ms, () => resolve(undefined));
		void promise.then((value) => {
			limit.cancel();
			resolve(value);
		});
	});
}

function descendants(root: number): number[] {
	const parents = new Map<number, number[]>();
	for (const name of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(name)) continue;
		const ppid = parentOf(Number(name));
		if (ppid === undefined) continue;
		const list = parents.get(ppid) ?? [];
		list.push(Number(name));
		parents.set(ppid, list);
	}
	const out: number[] = [];
	const queue = [root];
	while (queue.length > 0) {
		const p = queue.shift() as number;
		for (const c of parents.get(p) ?? []) {
			out.push(c);
			queue.push(c);
		}
	}
	return out;
}

/** The parent pid from /proc/<pid>/stat (the field after the parenthesised command name). */
function parentOf(pid: number): number | undefined {
	try {
		const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
		return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
	} catch {
		return undefined;
	}
}

/** Alive and not a zombie waiting for its parent to collect it. */
function isAlive(pid: number): boolean {
	try {
		const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
		return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
	} catch {
		return false;
	}
}

function signal(pid: number, sig: NodeJS.Signals): void {
	try {
		proc.kill(pid, sig);
	} catch {
		// gone already
	}
}

function signalGroup(pgid: number, sig: NodeJS.Signals): void {
	signal(-pgid, sig);
}

function tail(out: string, err: string): string {
	return `--- stdout (end)\n${out.slice(-3000)}\n--- stderr (end)\n${err.slice(-3000)}`;
}
