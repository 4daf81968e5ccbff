/**
 * The operations of the Members node, by operation value: each one's list entry, parameters and
 * execute. The node's Operation parameter is built from this list (operationParameter).
 */
import type { ListedOperation } from '../../shared/operation';
import * as deleteMembers from './delete';
import * as get from './get';
import * as upsert from './upsert';

/** In the order their parameters are shown. */
export const OPERATIONS = { get, upsert, delete: deleteMembers } satisfies Record<
	string,
	ListedOperation
>;
