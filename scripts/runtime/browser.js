/** The browser check's tools: Debian's chromium, its launch arguments, playwright-core from the runtime. */
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const { formatDuration, log, run } = require('./run-command');

const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Installs Debian's chromium with apt-get when it is missing (needs root). Returns its path. */
async function ensureChromium() {
	if (fs.existsSync(CHROMIUM_PATH)) return CHROMIUM_PATH;
	const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
	const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
	if (!isRoot || !hasApt) {
		throw new Error(
			`${CHROMIUM_PATH} not found. Install Debian's chromium (sudo apt-get install chromium) or set CHROMIUM_PATH.`,
		);
	}
	const t = Date.now();
	log('installing Debian chromium (apt-get update && apt-get install chromium)');
	const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
	await run('apt-get', ['update'], { env, label: 'apt-get update' });
	await run('apt-get', ['install', '-y', 'chromium'], { env, label: 'apt-get install chromium' });
	if (!fs.existsSync(CHROMIUM_PATH))
		throw new Error(`apt-get installed chromium but ${CHROMIUM_PATH} is missing`);
	log(`  chromium installed in ${formatDuration(Date.now() - t)}`);
	return CHROMIUM_PATH;
}

/**
 * Launch arguments that work on these machines (closed network, root, no GPU). Without a
 * `userDataDir` (what Playwright's launch() wants: it makes a fresh profile itself) the
 * --user-data-dir argument is left out.
 */
function chromiumArgs(userDataDir) {
	return [
		'--headless',
		'--no-sandbox',
		'--disable-gpu',
		'--disable-quic',
		'--no-first-run',
		'--disable-background-networking',
		'--disable-component-update',
		'--disable-sync',
		'--disable-dev-shm-usage',
		...(userDataDir ? [`--user-data-dir=${userDataDir}`] : []),
	];
}

/**
 * The part of playwright-core's API the end-to-end tests use.
 * @typedef {object} Locator
 * @property {() => Locator} first
 * @property {() => Promise<void>} click
 * @property {() => Promise<void>} dblclick
 * @property {(value: string) => Promise<void>} fill
 * @property {(options?: { timeout?: number, state?: 'attached' | 'detached' | 'visible' | 'hidden' }) => Promise<void>} waitFor
 * @property {() => Promise<string>} innerText
 * @property {() => Promise<string[]>} allInnerTexts
 * @property {<R>(fn: (elements: any[]) => R) => Promise<R>} evaluateAll
 * @property {(options: { path: string }) => Promise<unknown>} screenshot
 *
 * @typedef {object} Page
 * @property {(url: string, options?: { timeout?: number }) => Promise<unknown>} goto
 * @property {(selector: string, options?: { hasText?: string | RegExp }) => Locator} locator
 * @property {(text: string | RegExp) => Locator} getByText
 * @property {(role: string, options?: { name?: string | RegExp }) => Locator} getByRole
 * @property {(options: { path: string, fullPage?: boolean, clip?: { x: number, y: number, width: number, height: number } }) => Promise<unknown>} screenshot
 * @property {(url: (url: URL) => boolean, options?: { timeout?: number }) => Promise<void>} waitForURL
 * @property {{ press(key: string): Promise<void> }} keyboard
 * @property {() => Promise<void>} close
 *
 * @typedef {object} BrowserContext
 * @property {() => Promise<Page>} newPage
 * @property {() => Promise<void>} close
 *
 * @typedef {object} Browser
 * @property {(options?: { viewport?: { width: number, height: number } }) => Promise<BrowserContext>} newContext
 * @property {() => Promise<void>} close
 *
 * @typedef {{ chromium: { launch(options: { executablePath: string, args: string[], headless: boolean }): Promise<Browser> } }} Playwright
 */

/**
 * playwright-core, from the runtime folder (so that the package needs no extra dev dependency).
 * @param {import('./paths').RuntimePaths} paths
 * @returns {Playwright}
 */
function loadPlaywright(paths) {
	return require(paths.playwrightCore);
}

module.exports = { CHROMIUM_PATH, ensureChromium, chromiumArgs, loadPlaywright };
