/** Types of the leak checks of scripts/queue/process.js (CommonJS). */
/** True when nothing listens on 127.0.0.1:port any more. */
export declare function portIsFree(port: number): Promise<boolean>;
/** True when no process of the group `pgid` is alive. */
export declare function groupIsGone(pgid: number): boolean;
