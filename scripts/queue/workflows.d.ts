/** Types of scripts/queue/workflows.js (CommonJS). */
// Workflows are plain n8n workflow JSON.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Workflow = Record<string, any>;

export declare function webhookSendWorkflow(options: {
	path: string;
	campaignKey: string;
	webhookId: string;
	concurrency?: number;
}): Workflow;
export declare function eventBody(i: number, prefix?: string): { eventId: string; phoneNumber: string };
export declare function phoneOf(i: number): string;
export declare function syncWorkflow(options: { rows: number }): Workflow;
export declare const SYNC_KEYS: Record<string, 'string' | 'number' | 'date'>;
export declare function sendRunWorkflow(options: { count: number; campaignKey: string; concurrency?: number }): Workflow;
