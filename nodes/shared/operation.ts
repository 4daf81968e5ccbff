/**
 * The contract every operation of every node follows. One file per operation,
 * `<Node>/operations/<operation>.ts`, exports its entry of the Operation list (`option`),
 * `description` (its parameters, shown for that operation with `updateDisplayOptions`), what it
 * outputs (`kind`, and for a write what a Success item means and its advice), and `execute`, which
 * returns outcomes (outcome.ts). `<Node>/operations/index.ts` lists the files by operation value
 * (the value saved workflows hold); the node file builds its Operation parameter from that list
 * (`operationParameter`) and its `execute` hands the list to `runNode` (run.ts), which runs the one
 * the node is set to and turns its outcomes into outputs.
 */
import type {
	IDisplayOptions,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { AdviceTable } from './advice';
import type { Outcome } from './outcome';

/** What a Success item of a write means: the word for a row done, and what a model is told. */
export interface Done {
	/** A row done, in the execution hints' count line ("12 sent", "3 saved") and a stopped write's error. */
	verb: string;
	/** The `outcome` and `message` of a Success item in an AI agent's answer. */
	answer?: { outcome: string; message: string };
}

/**
 * An operation's entry in the node's Operation list: the label, the value saved workflows hold,
 * the `action` (what n8n's automatic tool description tells a model the tool does) and the
 * description shown under the label.
 */
export interface OperationOption {
	name: string;
	value: string;
	action: string;
	description: string;
}

/**
 * One operation file's exports. `Args` is what the node passes besides the items: nothing, or
 * the API version it talks to (which may also word its list entry and its parameters). A `read`
 * has one output; a `write` has Success and Failed, says what a Success item means (`done`), and
 * names what to change for the codes its users meet most (`advice`, advice.ts).
 */
export type Operation<Args extends unknown[] = []> = {
	/** Its entry in the Operation list (`operationParameter`). */
	option: OperationOption | ((...args: Args) => OperationOption);
	description: INodeProperties[] | ((...args: Args) => INodeProperties[]);
	execute(this: IExecuteFunctions, items: INodeExecutionData[], ...args: Args): Promise<Outcome[]>;
} & OperationOutputs;

/** What an operation outputs: all that run.ts, tool.ts and hints.ts need to know of it. */
export type OperationOutputs = { kind: 'read' } | WriteOperation;

/** A write: Success and Failed, what a Success item means, and what to change for its codes. */
export interface WriteOperation {
	kind: 'write';
	done: Done;
	advice?: AdviceTable;
}

/** The operations of a node by operation value. */
export type Operations<Args extends unknown[] = []> = Readonly<Record<string, Operation<Args>>>;

/** An operation with its entry in the Operation list (what `operationParameter` builds from). */
export type ListedOperation<Args extends unknown[] = []> = Operation<Args> &
	Required<Pick<Operation<Args>, 'option'>>;

/** The values of the operations with one output (the reads). */
export function readOperations<Args extends unknown[]>(operations: Operations<Args>): string[] {
	return Object.keys(operations).filter((name) => operations[name].kind === 'read');
}

/** Where the Operation parameter is shown, and the operation a node added to a workflow starts with. */
export interface OperationParameterSettings {
	default: string;
	displayOptions?: IDisplayOptions;
}

/**
 * The node's Operation parameter, built from its operations' own list entries (`option`), in
 * the order n8n's linter wants an options list in (by name, as its `optionComparator` sorts).
 * An entry whose value is not its operation's is a programming error: the node would run
 * another operation than the one chosen.
 */
export function operationParameter<Args extends unknown[]>(
	operations: Readonly<Record<string, ListedOperation<Args>>>,
	settings: OperationParameterSettings,
	...args: Args
): INodeProperties {
	const options = Object.entries(operations).map(([value, operation]) => {
		const option =
			typeof operation.option === 'function' ? operation.option(...args) : operation.option;
		if (option.value !== value) {
			throw new Error(`The list entry of operation "${value}" has the value "${option.value}"`);
		}
		return option;
	});
	// `default` read into a name: the linter checks a literal or a name, never a member expression.
	const { default: first, displayOptions } = settings;
	return {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		...(displayOptions ? { displayOptions } : {}),
		default: first,
		options: options.sort((a, b) => a.name.localeCompare(b.name)),
	};
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
