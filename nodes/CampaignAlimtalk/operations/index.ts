/** The operations of the Alimtalk node, by operation value: each one's parameters and execute. */
import type { ListedOperation } from '../../shared/operation';
import * as send from './send';

export const OPERATIONS = { send } satisfies Record<string, ListedOperation>;
