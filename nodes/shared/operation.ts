/**
 * The contract every operation of every node follows. One file per operation,
 * `<Node>/operations/<operation>.ts`, exports `description` (its parameters, shown for that
 * operation with `updateDisplayOptions`), what it gives (`kind`, and for a write the word for
 * done and its advice), and `execute`, which returns outcomes (outcome.ts).
 * `<Node>/operations/index.ts` lists the files by operation value (the value saved workflows
 * hold); the node file's `execute` hands that list to `runNode` (run.ts), which runs the one the
 * node is set to and turns its outcomes into outputs.
 */
import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { AdviceTable } from './advice';
import type { Outcome } from './outcome';

/** What a Success item of a write means: one word for the hints, and what a model is told. */
export interface Done {
	/** In the execution hints' count line: "12 sent", "3 saved". */
	word: string;
	/** The `outcome` and `message` of a Success item in an AI agent's answer. */
	answer?: { outcome: string; message: string };
}

/**
 * One operation file's exports. `Args` is what the node passes besides the items: nothing, or
 * for the data nodes their dialect (which also words their parameters). A `read` has one
 * output; a `write` has Success and Failed, says what a Success item means (`done`), and names
 * what to change for the codes its users meet most (`advice`, advice.ts).
 */
export type Operation<Args extends unknown[] = []> = {
	description: INodeProperties[] | ((...args: Args) => INodeProperties[]);
	execute(this: IExecuteFunctions, items: INodeExecutionData[], ...args: Args): Promise<Outcome[]>;
} & Gives;

/** What an operation gives, all that run.ts, tool.ts and hints.ts need to know of it. */
export type Gives = { kind: 'read' } | Writes;

export interface Writes {
	kind: 'write';
	done: Done;
	advice?: AdviceTable;
}

/** The operations of a node by operation value. */
export type Operations<Args extends unknown[] = []> = Readonly<Record<string, Operation<Args>>>;

/** The values of the operations with one output (the reads). */
export function readOperations<Args extends unknown[]>(operations: Operations<Args>): string[] {
	return Object.keys(operations).filter((name) => operations[name].kind === 'read');
}

/** The operation the node is set to (an unknown value stops the node). */
export function readOperation<Args extends unknown[]>(
	ctx: IExecuteFunctions,
	operations: Operations<Args>,
): Operation<Args> {
	const operation = ctx.getNodeParameter('operation', 0) as string;
	if (!Object.prototype.hasOwnProperty.call(operations, operation)) {
		throw new NodeOperationError(ctx.getNode(), `Unknown operation "${operation}"`, {
			description: `Choose one of ${Object.keys(operations).join(', ')}.`,
		});
	}
	return operations[operation];
}
