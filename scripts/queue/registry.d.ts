/** Types of scripts/queue/registry.js (CommonJS). */
export interface Registry {
	url: string;
	port: number;
	pid: number;
	token: string;
	npmrc(scope: string): string;
	publish(packageDir: string): Promise<void>;
	stop(): Promise<void>;
}
export declare const VERDACCIO_VERSION: string;
export declare function ensureVerdaccio(): Promise<string>;
export declare function startRegistry(): Promise<Registry>;
export declare function renamedCopy(tarball: string, dir: string, name: string): Promise<string>;
